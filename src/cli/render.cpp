// The registry of renderers and the text and Markdown reports built from it. Each command's
// renderers are pure functions of its typed result, and here they read it from the Outcome: the
// live run's, or a saved document's read back by from_document, so both render alike.
#include "cli/render.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "cli/renderers.hpp"
#include "errors.hpp"
#include "report/format.hpp"
#include "report/warning.hpp"

namespace tct::cli {

using report::html::Card;

namespace {

// A descriptor's rendering `name` called with the result, or with the result and the outcome
// when it takes both (cli/section_list.hpp); has_<name><S>: whether the descriptor has one.
// clang-format off
#define TCT_SECTION_MEMBER(name)                                                                       \
  template <class S, class R = typename S::Result>                                                     \
  constexpr bool has_##name = requires(const R& r) { S::name(r); } ||                                  \
                              requires(const R& r, const Outcome& o) { S::name(r, o); };               \
  template <class S>                                                                                   \
  auto call_##name(const Outcome& o) {                                                                 \
    const auto& r = *o.get<typename S::Result>();                                                      \
    if constexpr (requires { S::name(r, o); }) return S::name(r, o);                                   \
    else return S::name(r);                                                                            \
  }
// clang-format on
TCT_SECTION_MEMBER(text)
TCT_SECTION_MEMBER(brief)
TCT_SECTION_MEMBER(markdown)
TCT_SECTION_MEMBER(html)
TCT_SECTION_MEMBER(cards)
TCT_SECTION_MEMBER(answers)
#undef TCT_SECTION_MEMBER

template <class S>
Renderers renderers_of_section() {
  Renderers r{};
  r.key = S::key;
  r.page = S::page;
  r.answer = S::answer;
  r.toc = S::toc;
  r.present = [](const Outcome& o) { return o.get<typename S::Result>().has_value(); };
  r.text = [](const Outcome& o) -> std::string { return call_text<S>(o); };
  r.markdown = [](const Outcome& o) -> std::string { return call_markdown<S>(o); };
  if constexpr (has_brief<S>) r.brief = [](const Outcome& o) -> std::string { return call_brief<S>(o); };
  if constexpr (has_html<S>) r.html = [](const Outcome& o) -> std::string { return call_html<S>(o); };
  if constexpr (has_cards<S>) r.cards = [](const Outcome& o) -> std::vector<Card> { return call_cards<S>(o); };
  if constexpr (has_answers<S>)
    r.answers = [](const Outcome& o) -> std::vector<std::pair<std::string, std::string>> { return call_answers<S>(o); };
  return r;
}

}  // namespace

const std::vector<Renderers>& renderers() {
  static const std::vector<Renderers> all = [] {
    std::vector<Renderers> out;
    Sections::each([&]<class S>(std::type_identity<S>) { out.push_back(renderers_of_section<S>()); });
    return out;
  }();
  return all;
}

std::vector<const Renderers*> renderers_by(int Renderers::*rank) {
  std::vector<const Renderers*> out;
  for (const auto& r : renderers()) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(),
                   [rank](const Renderers* a, const Renderers* b) { return a->*rank < b->*rank; });
  return out;
}

const Renderers* renderers_of(const std::string& key) {
  for (const auto& r : renderers())
    if (key == r.key) return &r;
  return nullptr;
}

namespace {

std::string extension(const std::string& path) {
  auto dot = path.rfind('.');
  auto slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

enum class Style { Brief, Verbose, Markdown };

// The registry's order; an audit shows its steps' sections in the order they ran.
std::string sections(const Outcome& o, Style style) {
  std::vector<const Renderers*> order;
  auto add = [&](const std::string& key) {
    const Renderers* r = renderers_of(key);
    if (r && std::find(order.begin(), order.end(), r) == order.end()) order.push_back(r);
  };
  add(audit::Section::key);
  if (const auto& audit = o.get<audit::AuditResult>())
    for (const auto& step : audit->steps) add(step.name);
  for (const auto& r : renderers()) add(r.key);
  std::string out;
  for (const Renderers* r : order) {
    if (!r->present(o)) continue;
    auto render = style == Style::Markdown ? r->markdown : style == Style::Brief && r->brief ? r->brief : r->text;
    std::string part = render(o);
    // Markdown needs a blank line between blocks, or a heading runs into the bullet before it.
    if (style == Style::Markdown) {
      while (!part.empty() && part.back() == '\n') part.pop_back();
      if (!part.empty()) part += "\n\n";
    }
    out += part;
  }
  return out;
}

// What the outcome answers, most decisive first (each section's `answer` place): a measured
// speedup, then graph breaks, then the expected class, then whether torch.compile runs here.
// Each is (question, answer).
std::vector<std::pair<std::string, std::string>> answers(const Outcome& o) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Renderers* r : renderers_by(&Renderers::answer))
    if (r->answers && r->present(o))
      for (auto& a : r->answers(o)) out.push_back(std::move(a));
  return out;
}

std::string error_line(const Outcome& o, bool markdown) {
  if (!o.error) return "";
  std::string hint = o.error->hint.value_or("");
  if (!hint.empty()) hint[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(hint[0])));  // as on stderr
  return fmt::format("{}: {}{}\n", markdown ? "**Error**" : "error", o.error->message, hint.empty() ? "" : ". " + hint);
}

}  // namespace

// Strings from logs and user code may hold invalid UTF-8 (a cut or corrupted TORCH_TRACE):
// written as U+FFFD rather than failing the whole document.
std::string render_json(const json& doc) { return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }
std::string render_json(const Outcome& o) { return render_json(to_document(o)); }

std::string headline(const Outcome& o) {
  auto found = answers(o);
  return found.empty() ? "" : found[0].first + ": " + found[0].second;
}

std::string render_text(const Outcome& o, bool verbose) {
  std::string out = sections(o, verbose ? Style::Verbose : Style::Brief);
  if (verbose) {
    for (const auto& w : o.warnings) out += report::format_warning(w) + "\n";
    return out;
  }
  auto lines = report::brief_warning_lines(o.warnings);
  if (!lines.empty() && !out.empty() && out.back() == '\n' && out.size() > 1 && out[out.size() - 2] != '\n')
    out += "\n";
  for (const auto& l : lines) out += l + "\n";
  // The last line: what bench's intervals mean, and where the rest is.
  const bool intervals = o.command == "bench" || o.command == "audit";
  if (!lines.empty() || intervals)
    out += fmt::format("({}tct {} -v: every detail, and what to do about each warning)\n",
                       intervals ? "95% intervals across fresh processes, as a re-run meets them; " : "", o.command);
  return out;
}

// Verdict first (a pull-request comment is read from the top, often no further), then the
// answers as a compact table, then everything else folded away in <details>.
std::string render_markdown(const Outcome& o) {
  auto found = answers(o);
  std::string verdict = !found.empty() ? found[0].second : o.error ? "error: " + o.error->message : "no result";
  std::string out = fmt::format("## tct {}: {}\n\n", o.command, verdict);
  if (found.size() > 1) {  // one answer is the headline already
    report::Table t({"question", "answer"});
    for (const auto& [q, a] : found) t.add({q, a});
    out += t.markdown() + "\n";
  }
  out += error_line(o, true);
  if (o.error) out += "\n";
  out += "<details><summary>Details</summary>\n\n";
  out += sections(o, Style::Markdown);
  if (!o.warnings.empty()) {
    out += "### Warnings\n\n";
    for (const auto& w : o.warnings) out += "- " + report::format_warning(w) + "\n";
    out += "\n";
  }
  out += "</details>\n";
  out += fmt::format("\n<sub>tct {}, schema {}, {}</sub>\n", o.tct_version, o.schema, o.created);
  return out;
}

void validate_output_paths(const std::vector<std::string>& paths) {
  for (const auto& p : paths) {
    auto ext = extension(p);
    if (ext != ".json" && ext != ".md" && ext != ".html")
      throw usage_error(fmt::format("--out {}: unknown report type '{}'", p, ext),
                        "use a file name ending in .json, .md or .html");
  }
}

std::vector<std::pair<std::string, std::string>> render_files(const Outcome& o, const std::vector<std::string>& paths) {
  validate_output_paths(paths);
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& p : paths) {
    auto ext = extension(p);
    if (ext == ".json") files.emplace_back(p, render_json(o));
    else if (ext == ".md") files.emplace_back(p, render_markdown(o));
    else files.emplace_back(p, render_html(o));
  }
  return files;
}

}  // namespace tct::cli
