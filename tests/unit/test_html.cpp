// The HTML report and its SVG charts, rendered from synthetic documents and from real
// documents saved in tests/e2e/fixtures/html_*.json. Set TCT_HTML_DUMP=DIR to write each
// rendered page there (to look at it in a browser).
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/render.hpp"
#include "report/svg.hpp"

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;
using tct::cli::render_html;

const std::string kEvil = "<script>alert(1)</script>";

json envelope(const std::string& command) {
  return {{"schema", "tct/1"},
          {"command", command},
          {"tct_version", "0.1.0"},
          {"created", "2026-01-01T00:00:00Z"},
          {"exit_code", 0},
          {"error", nullptr},
          {"warnings", json::array()},
          {"environment",
           {{"interpreter", {{"path", "/usr/bin/python3"}, {"chosen_by", "PATH"}}},
            {"python", {{"version", "3.11.7"}, {"executable", "/usr/bin/python3"}, {"implementation", "CPython"}}},
            {"torch", {{"version", "2.13.0+cpu"}}}}}};
}

json summary(double median) {
  return {{"n", 40},
          {"min", median * 0.9},
          {"max", median * 1.6},
          {"mean", median * 1.05},
          {"median", median},
          {"p05", median * 0.93},
          {"p25", median * 0.97},
          {"p75", median * 1.04},
          {"p95", median * 1.3},
          {"mad", median * 0.02},
          {"robust_cv", 0.03}};
}

json bench_row(const std::string& backend, double speedup) {
  json curve = json::array({3.1e9, 2.0e6, 1.2e6});
  for (int i = 0; i < 17; ++i) curve.push_back(1.0e6 + 1e4 * (i % 3));
  return {{"backend", backend},
          {"mode", "default"},
          {"dynamic", "auto"},
          {"fullgraph", false},
          {"status", "ok"},
          {"error", nullptr},
          {"speedup", {{"estimate", speedup}, {"low", speedup * 0.97}, {"high", speedup * 1.03}, {"confidence", 0.95}}},
          {"latency", {{"eager", summary(1.5e6)}, {"compiled", summary(1.5e6 / speedup)}}},
          {"warmup_curve_ns", curve},
          {"steady_state", {{"found", true}, {"start_index", 3}, {"level_ns", 1.0e6}}},
          {"compile",
           {{"cold_ns", 4.2e9}, {"warm_ns", 1.1e9}, {"first_call_ns", 3.1e9}, {"breakdown", {{"inductor", 2e9}}}}},
          {"break_even_calls", 8400},
          {"correctness", {{"checked", true}, {"match", true}, {"mismatches", json::array()}}},
          {"memory", {{"kind", "rss"}, {"eager_peak_bytes", 3.0e8}, {"compiled_peak_bytes", 3.2e8}}},
          {"recompiles_during_measurement", 0},
          {"graph_breaks", 0},
          {"blocks", 6},
          {"stop_reason", "precision"}};
}

// An audit-shaped document holding every section, with markup in every user string.
json evil_document() {
  json doc = envelope("audit");
  doc["warnings"].push_back({{"code", "noisy_measurement"}, {"message", "noisy " + kEvil}, {"hint", "raise --budget"}});
  doc["probe"] = {
      {"python", doc["environment"]["python"]},
      {"torch", {{"version", "2.13.0"}}},
      {"environment_variables", {{"TORCH_LOGS", kEvil}}},
      {"smoke", json::array()},
      {"verdict", "usable_with_caveats"},
      {"reasons", {{{"severity", "caveat"}, {"code", "x"}, {"message", "caveat " + kEvil}, {"fix", "fix"}}}}};
  json failed = {
      {"backend", "inductor"},
      {"mode", "max-autotune"},
      {"dynamic", "auto"},
      {"fullgraph", false},
      {"status", "failed"},
      {"error", {{"kind", "compile_failed"}, {"message", "boom " + kEvil}, {"hint", "h"}, {"stage", "compile"}}}};
  doc["bench"] = {{"target", {{"spec", "evil.py:" + kEvil}, {"kind", "function"}}},
                  {"config", json::object()},
                  {"eager", {{"warmup_ns", {2e6, 1.6e6, 1.5e6}}}},
                  {"rows", {bench_row("inductor", 1.8), bench_row("aot_eager", 0.9), failed}}};
  json frame = {{"file", "/home/u/" + kEvil + ".py"},
                {"line", 12},
                {"function", "forward"},
                {"source", "x = y.item()  # " + kEvil}};
  json hint = {{"text", "item " + kEvil}, {"fix", "keep it a tensor"}, {"url", "javascript:alert(1)"}};
  doc["explain"] = {
      {"target", "evil.py:f"},
      {"graph_count", 2},
      {"graph_break_count", 1},
      {"op_count", 5},
      {"guard_count", 9},
      {"capturable", false},
      {"breaks", {{{"reason", "Unsupported " + kEvil}, {"kind", "item_scalar"}, {"frames", {frame}}, {"hint", hint}}}},
      {"groups",
       {{{"kind", "item_scalar"},
         {"file", frame["file"]},
         {"line", 12},
         {"function", "forward"},
         {"source", frame["source"]},
         {"count", 1},
         {"reason", "Unsupported " + kEvil},
         {"hint", hint}}}}};
  json points = json::array();
  int i = 0;
  for (int batch : {1, 8, 64}) {
    double s = 2.5 / (1 + i++);
    points.push_back({{"value", batch},
                      {"class", i < 3 ? "overhead_bound" : "compute_bound"},
                      {"predicted_speedup", {{"low", s * 0.7}, {"high", s * 1.4}}},
                      {"speedup", {{"estimate", s}, {"low", s * 0.9}, {"high", s * 1.1}}},
                      {"error", nullptr}});
  }
  doc["expect"] = {
      {"target", "evil.py:f"},
      {"class", "overhead_bound"},
      {"predicted_speedup", {{"low", 1.5}, {"high", 3.0}}},
      {"decided_by", {{{"metric", "fixed_cost_fraction"}, {"value", 0.7}, {"threshold", 0.5}, {"meaning", kEvil}}}},
      {"suggestions", {{{"rank", 1}, {"title", "Use CUDA graphs"}, {"why", "why " + kEvil}, {"how", "mode=" + kEvil}}}},
      {"sweep", {{"param", "batch" + kEvil}, {"points", points}}},
      {"validation", nullptr}};
  return doc;
}

void dump(const std::string& name, const std::string& html) {
  const char* dir = std::getenv("TCT_HTML_DUMP");
  if (!dir) return;
  std::ofstream(fs::path(dir) / (name + ".html")) << html;
}

int count(const std::string& hay, const std::string& needle) {
  int n = 0;
  for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

TEST(Svg, EscapeXml) {
  EXPECT_EQ(tct::report::svg::escape_xml("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(tct::report::svg::escape_xml(std::string("a\x01z")), "a\xEF\xBF\xBDz");
}

TEST(Svg, TicksLinearAreNiceAndCoverTheRange) {
  auto t = tct::report::svg::ticks(0, 1, false);
  ASSERT_FALSE(t.empty());
  EXPECT_DOUBLE_EQ(t.front(), 0);
  EXPECT_DOUBLE_EQ(t.back(), 1);
  auto t2 = tct::report::svg::ticks(0.5, 3.2, false);
  for (double v : t2) EXPECT_NEAR(std::fmod(v * 2, 1.0), 0, 1e-9) << v;  // steps of 0.5
}

TEST(Svg, TicksLogArePowersOfTen) {
  auto t = tct::report::svg::ticks(1e3, 1e9, true);
  ASSERT_FALSE(t.empty());
  for (double v : t) EXPECT_NEAR(std::log10(v), std::round(std::log10(v)), 1e-9) << v;
  EXPECT_TRUE(tct::report::svg::ticks(-1, 10, true).empty());
  EXPECT_TRUE(tct::report::svg::ticks(NAN, 10, false).empty());
}

TEST(Svg, LineChartSkipsNaNAndDrawsSeries) {
  tct::report::svg::LineChart c;
  c.title = "t<";
  c.y.log = true;
  c.series.push_back({"compiled", "compiled", {{1, 100}, {2, NAN}, {3, 0}, {4, 10}}, true, true, false});
  std::string s = tct::report::svg::line_chart(c);
  EXPECT_EQ(count(s, "<circle class=\"marker\""), 2);  // NaN and 0 (on a log axis) are skipped
  EXPECT_NE(s.find("aria-label=\"t&lt;\""), std::string::npos);
  EXPECT_EQ(s.find("nan"), std::string::npos);
  EXPECT_EQ(s.find("inf"), std::string::npos);
}

TEST(Svg, EmptyChartsDoNotCrash) {
  EXPECT_NE(tct::report::svg::line_chart({}).find("</svg>"), std::string::npos);
  EXPECT_NE(tct::report::svg::box_plot({}).find("</svg>"), std::string::npos);
  EXPECT_NE(tct::report::svg::bar_chart({}).find("</svg>"), std::string::npos);
}

TEST(Html, EveryUserStringIsEscaped) {
  std::string html = render_html(tct::cli::from_document(evil_document()));
  dump("synthetic_evil", html);
  EXPECT_EQ(html.find("<script"), std::string::npos) << "an unescaped <script> reached the page";
  EXPECT_EQ(html.find("javascript:"), html.find("javascript:alert(1)"));
  EXPECT_EQ(html.find("href=\"javascript:"), std::string::npos) << "a javascript: URL became a link";
  EXPECT_GE(count(html, "&lt;script&gt;alert(1)&lt;/script&gt;"), 8);
}

TEST(Html, SelfContainedWithNoScriptAndNoNetwork) {
  std::string html = render_html(tct::cli::from_document(evil_document()));
  EXPECT_EQ(html.rfind("<!doctype html>", 0), 0u);
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

TEST(Html, HasTheChartsAndSectionsTheIssueAsksFor) {
  std::string html = render_html(tct::cli::from_document(evil_document()));
  EXPECT_NE(html.find("id=\"summary\""), std::string::npos);
  EXPECT_NE(html.find("Warm-up curve"), std::string::npos);
  EXPECT_NE(html.find("Latency distributions"), std::string::npos);
  EXPECT_NE(html.find("Speedup against batch"), std::string::npos);
  EXPECT_NE(html.find("id=\"explain\""), std::string::npos);
  EXPECT_NE(html.find("forward"), std::string::npos);
  EXPECT_NE(html.find("id=\"environment\""), std::string::npos);
  EXPECT_GE(count(html, "<svg"), 5);  // speedup bars, 2 warm-up curves, latency boxes, sweep
  EXPECT_NE(html.find("1.80x"), std::string::npos);
  EXPECT_NE(html.find("boom &lt;script&gt;"), std::string::npos);  // the failed row's error
  EXPECT_EQ(html.find(">nan"), std::string::npos);
}

TEST(Html, ErrorDocumentWithNoSectionsRenders) {
  json doc = envelope("bench");
  doc["exit_code"] = 2;
  doc["environment"] = json::object();
  doc["error"] = {{"kind", "usage"}, {"message", "no builtin " + kEvil}, {"hint", "list them"}};
  std::string html = render_html(tct::cli::from_document(doc));
  EXPECT_NE(html.find("banner error"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("id=\"environment\""), std::string::npos);
}

TEST(Html, ToleratesOddShapes) {
  // Nulls, wrong types and missing fields where numbers are expected: no exception.
  json doc = envelope("bench");
  doc["bench"] = {
      {"target", nullptr},
      {"rows", {{{"status", "ok"}, {"speedup", nullptr}, {"latency", "x"}, {"warmup_curve_ns", {nullptr, "a", 1}}}}}};
  doc["explain"] = {{"groups", {{{"line", nullptr}, {"hint", "text"}}}}, {"breaks", "x"}};
  doc["expect"] = {{"class", 3}, {"sweep", {{"points", {{{"value", nullptr}, {"speedup", {{"estimate", nullptr}}}}}}}}};
  doc["diff"] = {{"fixed", {1, 2}}, {"unchanged", {{{"after", 3}}}}};
  EXPECT_NO_THROW(render_html(tct::cli::from_document(doc)));
}

TEST(Html, RealDocumentsFromFixtures) {
  fs::path dir = fs::path(TCT_SOURCE_DIR) / "tests" / "e2e" / "fixtures";
  int n = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("html_", 0) != 0 || entry.path().extension() != ".json") continue;
    std::ifstream f(entry.path());
    json doc = json::parse(f);
    std::string html;
    ASSERT_NO_THROW(html = render_html(tct::cli::from_document(doc))) << name;
    dump(entry.path().stem().string(), html);
    EXPECT_NE(html.find("</html>"), std::string::npos) << name;
    EXPECT_EQ(html.find("<script"), std::string::npos) << name;
    ++n;
  }
  EXPECT_GT(n, 0);
}

}  // namespace
