// The HTML report's page as the registry fills it: the answer first (summary cards), then
// the error and warnings, each command's section (and how an audit ran), the environment and the
// probe's facts; report/html.cpp draws the page around them.
#include <fmt/format.h>

#include "core/json_read.hpp"
#include "cli/render.hpp"
#include "cli/renderers.hpp"
#include "probe/render.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::cli {
namespace {

using namespace report::html;
using core::json_read::text;

// The target's name from the first section that loaded one (the agent's description).
std::string target_name(const Outcome& o) {
  const auto& bench = o.get<bench::BenchResult>();
  const auto& explain = o.get<explain::ExplainResult>();
  const auto& expect = o.get<expect::ExpectResult>();
  const core::LoadedTarget* targets[] = {bench ? &bench->target : nullptr, explain ? &explain->target : nullptr,
                                         expect ? &expect->target : nullptr};
  for (const core::LoadedTarget* t : targets) {
    if (!t) continue;
    if (t->raw.is_string()) return t->raw.get<std::string>();
    if (!t->view.spec.empty()) return t->view.spec;
  }
  const auto& audit = o.get<audit::AuditResult>();
  return audit ? audit->target : "";
}

std::string environment_section(const Outcome& o) {
  const json& env = o.environment;
  const probe::ProbeResult p = o.get<probe::ProbeResult>().value_or(probe::ProbeResult{});
  std::string out = R"(<section id="environment"><h2>Environment</h2>)";
  out += probe::html_verdict(p);
  std::vector<std::pair<std::string, std::string>> items;
  const json& interp = obj_at(env, "interpreter");
  const json& py = obj_at(env, "python");
  if (!interp.empty())
    items.push_back(
        {"Python", fmt::format("{} <span class=\"loc\">{}</span> <span class=\"muted\">(chosen by {})</span>",
                               esc(text(py, "version", "?")), esc(report::short_path(text(interp, "path"))),
                               esc(text(interp, "chosen_by")))});
  if (p.facts) {
    for (auto& item : probe::html_facts(p)) items.push_back(std::move(item));
  } else if (env.contains("torch")) {
    items.push_back({"torch", env["torch"].is_object() ? esc(text(env["torch"], "version")) : "not installed"});
  }
  for (auto& item : probe::html_environment_variables(p)) items.push_back(std::move(item));
  if (!text(env, "agent_version").empty()) items.push_back({"Agent", esc(text(env, "agent_version"))});
  // Anything else the environment holds (added by newer commands) is shown as it is.
  for (auto& [k, v] : env.items())
    if (k != "interpreter" && k != "python" && k != "torch" && k != "agent_version") items.push_back({k, generic(v)});
  out += facts(items);
  out += probe::html_smoke(p);
  return out + "</section>";
}

}  // namespace

// The page's header, error and warnings come from the document it embeds (report/html.cpp);
// the sections from the results.
std::string render_html(const Outcome& o) {
  const json doc = to_document(o);
  std::string target = target_name(o);
  std::string title =
      "tct " + (o.command.empty() ? std::string("tct") : o.command) + (target.empty() ? "" : ": " + target);

  std::vector<Card> cards;
  const std::vector<const Renderers*> by_page = renderers_by(&Renderers::page);
  for (const Renderers* r : by_page) {
    if (r->present(o) && r->cards)
      for (auto& c : r->cards(o)) cards.push_back(std::move(c));
  }
  std::string body = cards_section(cards) + error_banner(doc) + warnings_section(doc);
  std::string toc;
  if (!o.warnings.empty()) toc += R"(<a href="#warnings">Warnings</a>)";
  for (const Renderers* r : by_page) {
    if (!r->html || !r->present(o)) continue;
    std::string section = r->html(o);
    if (section.empty()) continue;
    body += section;
    toc += fmt::format(R"(<a href="#{}">{}</a>)", r->key, r->toc);
  }
  body += environment_section(o);
  toc += R"(<a href="#environment">Environment</a>)";
  return page(doc, title, toc, body);
}

}  // namespace tct::cli
