#include "core/hint_catalog.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <regex>

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

std::string fix_at(BreakKind kind, const std::string& file) {
  const std::string package = installed_package(file);
  if (package.empty() || package == "torch") return catalog_hint(kind).fix;
  if (kind == BreakKind::PrintLogging)
    return fmt::format(
        "the call is in {0}'s own code, which you do not edit: before compiling, add the logger method to "
        "torch._dynamo.config.ignore_logging_functions (e.g. logging.Logger.warning: skipped while compiled) or "
        "reorderable_logging_functions (run after the graph), or quiet {0}'s logging (its set_verbosity / "
        "logging.getLogger(\"{0}\").setLevel(logging.ERROR))",
        package);
  return fmt::format(
      "the break is in {}'s own code, which you do not edit: {} (a newer {} may avoid it; "
      "torch._dynamo.disable around the call keeps the rest compiled)",
      package, catalog_hint(kind).fix, package);
}

const Hint& catalog_hint(BreakKind k) {
  static const Hint print_logging{
      "print() and logging calls cannot be put in a graph: Dynamo ends the graph, runs the call in Python, "
      "then starts a new graph",
      "move the print/logging out of the compiled function (log its returned values instead), guard it with "
      "`if not torch.compiler.is_compiling():`, or add the function to "
      "torch._dynamo.config.reorderable_logging_functions so Dynamo runs it after the graph",
      kTroubleshooting};
  static const Hint item_scalar{
      ".item() (also float(t), int(t), .tolist()) turns a tensor into a Python number, which a graph does not "
      "hold by default",
      "keep the value a tensor (torch.where, masking) or set torch._dynamo.config.capture_scalar_outputs = True",
      kTroubleshooting};
  static const Hint dynamic_shape_op{
      "an operator whose output shape depends on the input's values (torch.nonzero, unique, masked_select, "
      "boolean-mask indexing) has no shape Dynamo can trace ahead of the data",
      "set torch._dynamo.config.capture_dynamic_output_shape_ops = True, or keep shapes fixed: a mask with "
      "torch.where / multiplication instead of indexing by nonzero (in a mixture of experts: compute every expert "
      "on every token and weight by the routing mask, or sort tokens by expert outside the compiled region)",
      "https://docs.pytorch.org/docs/stable/torch.compiler_dynamic_shapes.html"};
  static const Hint control_flow{
      "a Python if/while on a tensor's value: which branch runs depends on the data, so one graph cannot hold both",
      "write the branch as torch.where(cond, a, b) or torch.cond(pred, true_fn, false_fn, operands), or decide "
      "outside the compiled function and pass the decision in",
      "https://docs.pytorch.org/docs/stable/cond.html"};
  static const Hint numpy{
      "a NumPy call torch cannot translate (or .numpy() on a tensor) runs in Python, outside the graph",
      "use the torch equivalent (torch.* ops on tensors), or keep the NumPy code out of the compiled region; "
      "NumPy functions that torch._numpy supports are traced when torch._dynamo.config.trace_numpy is True",
      kTroubleshooting};
  static const Hint builtin{
      "a builtin, C-extension or skipped function Dynamo cannot trace ends the graph",
      "replace it with torch ops, move it out of the compiled region, or register it as a custom op "
      "(torch.library.custom_op) so it stays in the graph as one opaque node",
      "https://docs.pytorch.org/docs/stable/torch.compiler_faq.html"};
  static const Hint generator{
      "a generator (yield) in traced code cannot always be traced, so Dynamo breaks the graph",
      "return a list or tuple instead of yielding, or consume the generator outside the compiled region",
      kTroubleshooting};
  static const Hint explicit_break{"the code calls torch._dynamo.graph_break() on purpose",
                                   "remove the torch._dynamo.graph_break() call if the reason for it is gone",
                                   kTroubleshooting};
  static const Hint non_tensor{
      "a non-tensor value (a Python object, string or changing number) cannot be traced, or is treated as a "
      "constant so each new value recompiles",
      "pass tensors (or numbers that do not change) into the compiled function, build Python objects outside it, "
      "and pass changing sizes as tensors or mark them dynamic",
      kTroubleshooting};
  static const Hint dynamic_shape{
      "inputs changed shape, so code specialised to the old shape was compiled again",
      "call torch._dynamo.mark_dynamic(tensor, dim) on the varying dimension before the first call, or "
      "torch.compile(..., dynamic=True); or pad inputs to a few fixed sizes",
      "https://docs.pytorch.org/docs/stable/torch.compiler_dynamic_shapes.html"};
  static const Hint other{
      "Dynamo could not trace this code",
      "read the reason; move the code out of the compiled region or wrap it with torch.compiler.disable",
      kTroubleshooting};
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

Hint hint_for(BreakKind kind, const json& registry) {
  Hint h = catalog_hint(kind);
  if (!registry.is_object()) return h;
  std::string expl = registry.value("explanation", "");
  if (!expl.empty()) h.text = expl;
  std::string url = registry.value("url", "");
  if (!url.empty()) h.url = url;
  if (kind == BreakKind::Other) {
    auto hints = registry.value("hints", json::array());
    if (!hints.empty() && hints[0].is_string()) h.fix = hints[0].get<std::string>();
  }
  return h;
}

json to_json(const Hint& h) { return {{"text", h.text}, {"fix", h.fix}, {"url", h.url}}; }

}  // namespace tct::core
