#include "core/hint_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>

#include "core/fix_table.hpp"
#include "core/recompile_guard.hpp"

namespace tct::core {
namespace {

using json = nlohmann::json;

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool has(const std::string& text, std::string_view needle) { return text.find(needle) != std::string::npos; }

std::string trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

// The reason without torch's "Hint:" lines, the developer context and the link: those
// repeat generic advice ("e.g. `print`") under unrelated kinds and would mislead.
std::string head_of(std::string_view reason) {
  std::string out;
  size_t pos = 0;
  while (pos <= reason.size()) {
    size_t nl = reason.find('\n', pos);
    std::string_view line = reason.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    std::string t = trim(line);
    bool skip = t.rfind("Hint:", 0) == 0 || t.rfind("Developer debug context:", 0) == 0 ||
                t.rfind("For more details about this graph break", 0) == 0;
    if (!skip) out += std::string(line) + "\n";
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return out;
}

const std::string kTroubleshooting = "https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html";

}  // namespace

std::string to_string(BreakKind k) {
  switch (k) {
    case BreakKind::PrintLogging: return "print_logging";
    case BreakKind::ItemScalar: return "item_scalar";
    case BreakKind::DynamicShapeOperator: return "dynamic_shape_operator";
    case BreakKind::DataDependentControlFlow: return "data_dependent_control_flow";
    case BreakKind::Numpy: return "numpy";
    case BreakKind::UnsupportedBuiltin: return "unsupported_builtin";
    case BreakKind::Generator: return "generator";
    case BreakKind::ExplicitGraphBreak: return "explicit_graph_break";
    case BreakKind::NonTensorArgument: return "non_tensor_argument";
    case BreakKind::DynamicShapeRecompile: return "dynamic_shape_recompile";
    case BreakKind::Other: return "other";
  }
  return "other";
}

std::optional<BreakKind> break_kind_from_string(std::string_view name) {
  static constexpr std::array all = {BreakKind::PrintLogging,
                                     BreakKind::ItemScalar,
                                     BreakKind::DynamicShapeOperator,
                                     BreakKind::DataDependentControlFlow,
                                     BreakKind::Numpy,
                                     BreakKind::UnsupportedBuiltin,
                                     BreakKind::Generator,
                                     BreakKind::ExplicitGraphBreak,
                                     BreakKind::NonTensorArgument,
                                     BreakKind::DynamicShapeRecompile,
                                     BreakKind::Other};
  for (auto k : all)
    if (to_string(k) == name) return k;
  return std::nullopt;
}

std::string kind_label(BreakKind k) {
  switch (k) {
    case BreakKind::PrintLogging: return "print / logging";
    case BreakKind::ItemScalar: return ".item() / data-dependent scalar";
    case BreakKind::DynamicShapeOperator: return "dynamic-shape operator (nonzero, unique, ...)";
    case BreakKind::DataDependentControlFlow: return "data-dependent control flow";
    case BreakKind::Numpy: return "NumPy call";
    case BreakKind::UnsupportedBuiltin: return "unsupported builtin / C function";
    case BreakKind::Generator: return "generator";
    case BreakKind::ExplicitGraphBreak: return "explicit torch._dynamo.graph_break()";
    case BreakKind::NonTensorArgument: return "non-tensor argument";
    case BreakKind::DynamicShapeRecompile: return "dynamic-shape recompile";
    case BreakKind::Other: return "other";
  }
  return "other";
}

std::string registry_id_of(std::string_view reason) {
  // torch >= 2.6: "For more details about this graph break, please visit:
  // https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0036.html"; some
  // messages name the id alone ("GB0036").
  static const std::regex link(R"(/gb/gb(\d{4})\.html)", std::regex::icase), bare(R"(\bGB(\d{4})\b)");
  std::string r(reason);
  std::smatch m;
  if (std::regex_search(r, m, link) || std::regex_search(r, m, bare)) return "GB" + m[1].str();
  return "";
}

std::optional<BreakKind> registry_kind(std::string_view registry_id, std::string_view gb_type) {
  // Ids and gb_types from torch/_dynamo/graph_break_registry.json (torch 2.13). Only the
  // ones whose kind the registry decides; GB0059 ("Failed to trace builtin operator")
  // covers print and every other builtin, so its text decides.
  struct Entry {
    const char* id;
    const char* gb_type;
    BreakKind kind;
  };
  static const Entry table[] = {
      {"GB0025", "Call to `torch._dynamo.graph_break()`", BreakKind::ExplicitGraphBreak},
      {"GB0291", "logging.Logger method not supported for non-export cases", BreakKind::PrintLogging},
      {"GB0124", "Unsupported Tensor.item() call with capture_scalar_outputs=False", BreakKind::ItemScalar},
      {"GB0109", "Tensor.tolist() with non-integer tensor", BreakKind::ItemScalar},
      {"GB0033", "Data dependent operator", BreakKind::ItemScalar},
      {"GB0036", "Dynamic shape operator", BreakKind::DynamicShapeOperator},
      {"GB0037", "Dynamic shape operator (no meta kernel)", BreakKind::DynamicShapeOperator},
      {"GB0246", "Attempted to use `torch.nn.functional.one_hot` with data-dependent output shape",
       BreakKind::DynamicShapeOperator},
      {"GB0170", "Data-dependent branching", BreakKind::DataDependentControlFlow},
      {"GB0035", "Data-dependent branching with non-constant __bool__", BreakKind::DataDependentControlFlow},
      {"GB0034", "Data-dependent assertion failed (cannot compile partial graph)", BreakKind::DataDependentControlFlow},
      {"GB0360", "torch.fx.experimental.symbolic_shapes.guard_scalar branch not supported",
       BreakKind::DataDependentControlFlow},
      {"GB0105", "Tensor.numpy() with trace_numpy=False", BreakKind::Numpy},
      {"GB0106", "Tensor.numpy() without NumPy installed", BreakKind::Numpy},
      {"GB0185", "failed to convert numpy.ndarray to Tensor", BreakKind::Numpy},
      {"GB0231", "call `torch.from_numpy` with `torch._dynamo.config.trace_numpy=False`", BreakKind::Numpy},
      {"GB0290", "attempted to trace numpy.* function as a method", BreakKind::Numpy},
      {"GB0293", "attempted to trace numpy function with config.trace_numpy=False", BreakKind::Numpy},
      {"GB0294", "attempted to trace numpy function unsupported by PyTorch", BreakKind::Numpy},
      {"GB0003", "Attempt to trace generator", BreakKind::Generator},
      {"GB0253", "call_method on generator", BreakKind::Generator},
      {"GB2549", "infinite generator detected", BreakKind::Generator},
      {"GB0007", "Attempted to call function marked as skipped", BreakKind::UnsupportedBuiltin},
      {"GB0008", "Attempted to inline function marked as skipped", BreakKind::UnsupportedBuiltin},
      {"GB0009", "Attempted to inline function marked as skipped (SkipFunctionVariable)",
       BreakKind::UnsupportedBuiltin},
      {"GB0098", "Skip calling `torch.compiler.disable()`d function", BreakKind::UnsupportedBuiltin},
      {"GB0099", "Skip inlining `torch.compiler.disable()`d function", BreakKind::UnsupportedBuiltin},
      {"GB0213", "unimplemented builtin op on tensor arguments", BreakKind::UnsupportedBuiltin},
  };
  for (const auto& e : table)
    if (!registry_id.empty() && registry_id == e.id) return e.kind;
  std::string type = trim(gb_type);
  for (const auto& e : table)
    if (!type.empty() && type == e.gb_type) return e.kind;
  return std::nullopt;
}

BreakKind classify_reason(std::string_view reason) {
  // torch's own classification first: the registry id in the reason's link, else its
  // first line as a gb_type (registry-era reasons start with it, after the logged
  // run's "Encountered graph break when attempting to trace ..." preamble).
  if (auto k = registry_kind(registry_id_of(reason), split_reason(reason).headline)) return *k;
  const std::string h = lower(head_of(reason));
  // Order matters: the most specific causes first. Each pattern cites the message it
  // matches (registry gb_type in torch >= 2.6, or the older free-form reason).
  // GB0025 "Call to `torch._dynamo.graph_break()`"; older: "call_function graph_break".
  if (has(h, "graph_break()") || has(h, "call_function graph_break") || has(h, "_dynamo.graph_break"))
    return BreakKind::ExplicitGraphBreak;
  // GB0059 builtin operator `print`; GB0291 "logging.Logger method"; older
  // "call_function BuiltinVariable(print)".
  static const std::regex print_re(
      R"((`print`|builtinvariable\(print\)|\bprint\b.*builtin|builtin print|logging\.logger|\blogger\b|logging function))");
  if (std::regex_search(h, print_re)) return BreakKind::PrintLogging;
  // Older torch without registry ids: "dynamic shape operator", nonzero-like ops.
  if (has(h, "dynamic shape operator") || has(h, "capture_dynamic_output_shape_ops") ||
      has(h, "one_hot` with data-dependent"))
    return BreakKind::DynamicShapeOperator;
  // GB0124 "Unsupported Tensor.item() call with capture_scalar_outputs=False"; GB0033
  // "Data dependent operator"; older "Tensor.item", "tolist".
  if (has(h, "item()") || has(h, "tensor.item") || has(h, "capture_scalar_outputs") || has(h, "tolist") ||
      has(h, "data dependent operator"))
    return BreakKind::ItemScalar;
  // GB0170 "Data-dependent branching", GB0035 "... with non-constant __bool__"; older
  // "generic_jump TensorVariable()", "data dependent jump".
  if (has(h, "data-dependent branching") || has(h, "data dependent branching") || has(h, "generic_jump") ||
      has(h, "data-dependent jump") || has(h, "data dependent jump") || has(h, "dynamic control flow") ||
      has(h, "data-dependent assertion") || has(h, "__bool__"))
    return BreakKind::DataDependentControlFlow;
  // GB0290/0293/0294 numpy functions, GB0105 Tensor.numpy(), GB0185 ndarray -> Tensor.
  if (has(h, "numpy")) return BreakKind::Numpy;
  // GB0003 "Attempt to trace generator", GB0253 "call_method on generator", GB2549...;
  // "torch.Generator" (random number generators) is not a Python generator.
  if (has(h, "generator") && !has(h, "torch.generator")) return BreakKind::Generator;
  // Values of Python objects and non-tensor inputs (GB0255/0256/0261, GB0184, GB0086).
  if (has(h, "userdefinedobjectvariable") || has(h, "user-defined object") || has(h, "user defined object") ||
      has(h, "non-tensor") || has(h, "not a python constant") || has(h, "sourceless user-defined"))
    return BreakKind::NonTensorArgument;
  // GB0059 builtins, GB0007-0009 skipped functions, GB0147/0156 unsupported calls,
  // GB0208 "torch.* op returned non-Tensor", GB0213; older "call_function
  // BuiltinVariable(...)", "skip_files", "non-traceable".
  if (has(h, "builtin") || has(h, "marked as skipped") || has(h, "skip_files") || has(h, "skipfunctionvariable") ||
      has(h, "c function") || has(h, "c extension") || has(h, "non-traceable") || has(h, "unsupported function call") ||
      has(h, "unsupported method call") || has(h, "op returned non-tensor") || has(h, "compiler.disable") ||
      has(h, "torch.compiler.disable") || has(h, "call_function") || has(h, "unimplemented"))
    return BreakKind::UnsupportedBuiltin;
  return BreakKind::Other;
}

BreakKind classify_recompile(const std::vector<std::string>& guards) {
  bool value = false;
  for (const auto& g : guards) {
    std::string l = lower(g);
    // "tensor 'x' size mismatch at index 0. expected 4, actual 8", "stride mismatch",
    // "... rank mismatch", symbolic "L['x'].size()[0] == 4".
    if (has(l, "size mismatch") || has(l, "stride mismatch") || has(l, "rank mismatch") || has(l, "dimensionality") ||
        has(l, ".size()") || has(l, ".stride()") || has(l, "dim"))
      return BreakKind::DynamicShapeRecompile;
    if (has(l, "==") || has(l, "!=") || has(l, "___check_obj_id") || has(l, "type(") || has(l, "id_match") ||
        has(l, "equals_match") || has(l, "constant"))
      value = true;
  }
  return value ? BreakKind::NonTensorArgument : BreakKind::Other;
}

std::string installed_package(const std::string& file) {
  for (const char* marker : {"/site-packages/", "/dist-packages/"}) {
    const auto at = file.find(marker);
    if (at == std::string::npos) continue;
    const auto from = at + std::string_view(marker).size();
    const auto end = file.find('/', from);
    std::string name = file.substr(from, end == std::string::npos ? std::string::npos : end - from);
    if (const auto dot = name.find('.'); dot != std::string::npos) name.resize(dot);  // six.py -> six
    return name;
  }
  return "";
}

std::string stdlib_module(const std::string& file) {
  // "/usr/lib/python3.11/contextlib.py", ".../lib/python3.11/threading.py": a file directly in
  // the interpreter's lib folder (site-packages and dist-packages are below it, not in it).
  const auto at = file.find("/lib/python3");
  if (at == std::string::npos) return "";
  const auto folder_end = file.find('/', at + 5);
  if (folder_end == std::string::npos || file.find('/', folder_end + 1) != std::string::npos) return "";
  std::string name = file.substr(folder_end + 1);
  if (name.size() < 4 || name.substr(name.size() - 3) != ".py") return "";
  return name.substr(0, name.size() - 3);
}

namespace {

Hint with_entry(std::string text, std::string url, const FixEntry& e) {
  return {std::move(text), std::string(e.fix), std::move(url), terms_of(e)};
}

// The distributed wrapper whose forward the break is under, from the traceback's files:
// torch/nn/parallel/distributed.py (DDP), torch/distributed/fsdp/ (FSDP and fully_shard) and
// torch/distributed/_composable/fsdp/ (fully_shard before 2.6).
std::string wrapper_of(const BreakSite& site) {
  auto in = [&](std::string_view part) {
    if (site.file.find(part) != std::string::npos) return true;
    return std::any_of(site.stack_files.begin(), site.stack_files.end(),
                       [&](const std::string& f) { return f.find(part) != std::string::npos; });
  };
  if (in("torch/nn/parallel/distributed.py")) return "ddp_wrap_order";
  if (in("torch/distributed/fsdp/") || in("torch/distributed/_composable/fsdp/")) return "fsdp_wrap_order";
  return "";
}

// "the library's" / "the library" in a library entry's words -> the package's name.
void name_the_library(std::string& fix, const std::string& package) {
  for (const std::string_view generic : {std::string_view("the library's"), std::string_view("the library")}) {
    size_t at = 0;
    while ((at = fix.find(generic, at)) != std::string::npos) {
      const std::string by = generic.back() == 's' ? package + "'s" : package;
      fix.replace(at, generic.size(), by);
      at += by.size();
    }
  }
  if (auto at = fix.find("getLogger(name)"); at != std::string::npos)
    fix.replace(at, 15, "getLogger(\"" + package + "\")");
}

}  // namespace

Hint break_fix(const BreakSite& site) {
  const Hint& catalog = catalog_hint(site.kind);
  if (const std::string wrapper = wrapper_of(site); !wrapper.empty())
    return with_entry(catalog.text, catalog.url, fix_entry(wrapper));
  const std::string package = installed_package(site.file);
  if (!package.empty() && package != "torch") {
    Hint h = with_entry(catalog.text, catalog.url,
                        fix_entry(site.kind == BreakKind::PrintLogging ? "library_logging" : "library_code"));
    name_the_library(h.fix, package);
    return h;
  }
  if (!stdlib_module(site.file).empty() && site.kind != BreakKind::PrintLogging)
    return with_entry(catalog.text, catalog.url, fix_entry("stdlib_context_manager"));
  if (site.kind != BreakKind::Other) return catalog;
  for (const auto& hint : site.torch_hints) {
    if (hint.empty() || is_generic_torch_hint(hint)) continue;
    if (auto e = fix_for_torch_hint(hint)) return with_entry(catalog.text, catalog.url, *e);
    // A hint the table does not know: torch's words, its cost unknown.
    Hint h = catalog;
    h.fix = hint;
    h.terms = {"torch_hint", "not known: torch's own hint, passed on as torch wrote it",
               "",           "torch's graph-break message",
               true,         ""};
    return h;
  }
  return catalog;
}

BreakSite break_site(BreakKind kind, const std::string& file, const std::vector<Frame>& frames,
                     std::string_view reason) {
  BreakSite site;
  site.kind = kind;
  site.file = file;
  for (const auto& f : frames) site.stack_files.push_back(f.file);
  site.torch_hints = split_reason(reason).hints;
  return site;
}

const Hint& catalog_hint(BreakKind k) {
  // Why each kind breaks the graph (the catalog's own words) and its fix from the fix table,
  // with the fix's cost and conditions.
  auto make = [](const char* text, std::string_view fix_id, std::string url) {
    return with_entry(text, std::move(url), fix_entry(fix_id));
  };
  static const Hint print_logging = make(
      "print() and logging calls cannot be put in a graph: Dynamo ends the graph, runs the call in Python, "
      "then starts a new graph",
      "move_print", kTroubleshooting);
  static const Hint item_scalar = make(
      ".item() (also float(t), int(t), .tolist()) turns a tensor into a Python number, which a graph does not "
      "hold by default",
      "keep_scalar_a_tensor", kTroubleshooting);
  static const Hint dynamic_shape_op = make(
      "an operator whose output shape depends on the input's values (torch.nonzero, unique, masked_select, "
      "boolean-mask indexing) has no shape Dynamo can trace ahead of the data",
      "capture_dynamic_output_shape_ops", "https://docs.pytorch.org/docs/stable/torch.compiler_dynamic_shapes.html");
  static const Hint control_flow = make(
      "a Python if/while on a tensor's value: which branch runs depends on the data, so one graph cannot hold both",
      "torch_cond", "https://docs.pytorch.org/docs/stable/cond.html");
  static const Hint numpy =
      make("a NumPy call torch cannot translate (or .numpy() on a tensor) runs in Python, outside the graph",
           "torch_for_numpy", kTroubleshooting);
  static const Hint builtin = make("a builtin, C-extension or skipped function Dynamo cannot trace ends the graph",
                                   "custom_op", "https://docs.pytorch.org/docs/stable/torch.compiler_faq.html");
  static const Hint generator =
      make("a generator (yield) in traced code cannot always be traced, so Dynamo breaks the graph", "no_generator",
           kTroubleshooting);
  static const Hint explicit_break =
      make("the code calls torch._dynamo.graph_break() on purpose", "remove_graph_break", kTroubleshooting);
  static const Hint non_tensor = make(
      "a non-tensor value (a Python object, string or changing number) cannot be traced, or is treated as a "
      "constant so each new value recompiles",
      "pass_tensors", kTroubleshooting);
  static const Hint dynamic_shape =
      make("inputs changed shape, so code specialised to the old shape was compiled again", "mark_dynamic",
           "https://docs.pytorch.org/docs/stable/torch.compiler_dynamic_shapes.html");
  static const Hint other = make("Dynamo could not trace this code", "move_out_or_disable", kTroubleshooting);
  switch (k) {
    case BreakKind::PrintLogging: return print_logging;
    case BreakKind::ItemScalar: return item_scalar;
    case BreakKind::DynamicShapeOperator: return dynamic_shape_op;
    case BreakKind::DataDependentControlFlow: return control_flow;
    case BreakKind::Numpy: return numpy;
    case BreakKind::UnsupportedBuiltin: return builtin;
    case BreakKind::Generator: return generator;
    case BreakKind::ExplicitGraphBreak: return explicit_break;
    case BreakKind::NonTensorArgument: return non_tensor;
    case BreakKind::DynamicShapeRecompile: return dynamic_shape;
    case BreakKind::Other: return other;
  }
  return other;
}

ReasonParts split_reason(std::string_view reason) {
  ReasonParts p;
  size_t pos = 0;
  // Logged reasons start with "Encountered graph break when attempting to trace CALL: ...:"
  // followed by a blank line; the registry's gb_type is the first line after it.
  bool headline_done = false;
  while (pos <= reason.size()) {
    size_t nl = reason.find('\n', pos);
    std::string line = trim(reason.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    if (line.rfind("Explanation:", 0) == 0) p.explanation = trim(std::string_view(line).substr(12));
    else if (line.rfind("Hint:", 0) == 0) p.hints.push_back(trim(std::string_view(line).substr(5)));
    else if (!headline_done && !line.empty() && line.rfind("Encountered graph break when attempting", 0) != 0) {
      p.headline = line;
      headline_done = true;
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  // The documentation link is the one that carries the registry id (registry_id_of).
  static const std::regex url_re(R"(https?://\S+)");
  std::string r(reason);
  for (std::sregex_iterator it(r.begin(), r.end(), url_re), end; it != end; ++it)
    if (!registry_id_of(it->str()).empty()) {
      p.url = it->str();
      break;
    }
  return p;
}

Hint hint_for(const BreakSite& site, const json& registry) {
  BreakSite with_hints = site;
  if (with_hints.torch_hints.empty() && registry.is_object())
    for (const auto& h : registry.value("hints", json::array()))
      if (h.is_string()) with_hints.torch_hints.push_back(h.get<std::string>());
  Hint h = break_fix(with_hints);
  if (!registry.is_object()) return h;
  std::string expl = registry.value("explanation", "");
  if (!expl.empty()) h.text = expl;
  std::string url = registry.value("url", "");
  if (!url.empty()) h.url = url;
  return h;
}

Hint hint_for(BreakKind kind, const json& registry) {
  BreakSite site;
  site.kind = kind;
  return hint_for(site, registry);
}

Hint recompile_hint(const std::vector<std::string>& guard_failures) {
  const auto g = newest_guard_failure(guard_failures);
  if (!g) return catalog_hint(classify_recompile(guard_failures));
  const RecompileFix f = recompile_fix(*g);
  Hint h = catalog_hint(classify_recompile(guard_failures));
  h.text = f.why;
  h.fix = f.fix;
  h.terms = f.terms;
  return h;
}

Hint hint_from_json(const json& j) {
  auto str = [&](const char* k) {
    return j.is_object() && j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : std::string();
  };
  return {str("text"), str("fix"), str("url"), fix_terms_from_json(j.is_object() ? j.value("terms", json()) : json())};
}

json to_json(const Hint& h) {
  json out = {{"text", h.text}, {"fix", h.fix}, {"url", h.url}};
  if (!h.terms.id.empty()) out["terms"] = to_json(h.terms);  // a document from before terms has none
  return out;
}

}  // namespace tct::core
