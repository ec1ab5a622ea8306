#include "core/fix_table.hpp"

#include <algorithm>
#include <utility>

namespace tct::core {
namespace {

bool hint_names(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

constexpr std::string_view kTroubleshootingPage =
    "https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html";
constexpr std::string_view kDynamicShapesPage =
    "https://docs.pytorch.org/docs/stable/torch.compiler_dynamic_shapes.html";
constexpr std::string_view kRecompilationPage =
    "https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/programming_model.recompilation.html";
// "torch.compile specifically doesn't handle distributed wrapper modules like DDP or FSDP very
// well, so consider applying torch.compile to the inner module passed to the wrapper."
constexpr std::string_view kWhereToCompilePage =
    "https://docs.pytorch.org/docs/stable/compile/programming_model.where_to_apply_compile.html";

}  // namespace

const std::vector<FixEntry>& fix_table() {
  static const std::vector<FixEntry> table = {
      // Graph breaks: the catalog's fix per kind (core/hint_catalog.cpp).
      {"move_print",
       "move the print/logging out of the compiled function (log its returned values instead), guard it with "
       "`if not torch.compiler.is_compiling():`, or add the function to "
       "torch._dynamo.config.reorderable_logging_functions so Dynamo runs it after the graph",
       "nothing at run time; a reordered call prints after the graph ran, so an object mutated after the call prints "
       "its later state",
       "the output must appear in order with what the graph itself prints",
       "torch/_dynamo/config.py (reorderable_logging_functions: \"does not correctly print objects that were mutated "
       "after the print statement\")",
       false},
      {"keep_scalar_a_tensor",
       "keep the value a tensor (torch.where, masking) or set torch._dynamo.config.capture_scalar_outputs = True",
       "a tensor costs nothing; with capture_scalar_outputs the number becomes an unbacked symbol: a Python branch on "
       "it, or a size made of it, still breaks the graph or raises a data-dependent error",
       "the number leaves the compiled code anyway (printed, compared in Python): the break then stays",
       "torch/_dynamo/config.py (capture_scalar_outputs: \"requires dynamic_shapes\")", true},
      {"capture_dynamic_output_shape_ops",
       "set torch._dynamo.config.capture_dynamic_output_shape_ops = True, or keep shapes fixed: a mask with "
       "torch.where / multiplication instead of indexing by nonzero (in a mixture of experts: compute every expert "
       "on every token and weight by the routing mask, or sort tokens by expert outside the compiled region)",
       "with the setting, the output's size is an unbacked symbol: what follows compiles for any size (generic "
       "kernels) and a Python branch on the size raises a data-dependent error; the fixed-shape form computes every "
       "element, masked ones included",
       "the operator has no meta kernel (torch says \"no meta kernel\"): the setting cannot capture it",
       "torch/_dynamo/config.py (capture_dynamic_output_shape_ops: \"requires dynamic_shapes\")", true},
      {"torch_cond",
       "write the branch as torch.where(cond, a, b) or torch.cond(pred, true_fn, false_fn, operands), or decide "
       "outside the compiled function and pass the decision in",
       "both branches are compiled; torch.where also computes both on every call",
       "the branches return different "
       "shapes or dtypes (torch.cond requires the same), or one of them has side effects",
       "https://docs.pytorch.org/docs/stable/cond.html", false},
      {"torch_for_numpy",
       "use the torch equivalent (torch.* ops on tensors), or keep the NumPy code out of the compiled region; "
       "NumPy functions that torch._numpy supports are traced when torch._dynamo.config.trace_numpy is True",
       "nothing beyond the rewrite", "the NumPy function has no torch equivalent: keep it out of the compiled region",
       "torch/_dynamo/config.py (trace_numpy, True by default)", false},
      {"custom_op",
       "replace it with torch ops, move it out of the compiled region, or register it as a custom op "
       "(torch.library.custom_op) so it stays in the graph as one opaque node",
       "a custom op is opaque: nothing fuses across it, and it needs a fake (meta) function for its output shapes; "
       "moved out, the call runs in Python as it does now",
       "the call returns Python values the graph needs (a custom op takes and returns tensors)",
       "https://docs.pytorch.org/docs/stable/library.html#torch.library.custom_op", false},
      {"no_generator",
       "return a list or tuple instead of yielding, or consume the generator outside the compiled region",
       "a list holds every item at once", "the generator is endless or streams more than fits in memory",
       kTroubleshootingPage, false},
      {"remove_graph_break", "remove the torch._dynamo.graph_break() call if the reason for it is gone", "nothing",
       "it keeps something out of the graph on purpose", kTroubleshootingPage, false},
      {"pass_tensors",
       "pass tensors (or numbers that do not change) into the compiled function, build Python objects outside it, "
       "and pass changing sizes as tensors or mark them dynamic",
       "one compile for all values: the value is data, read on each call",
       "the value picks code paths (a string, a flag): keep it to a few fixed values instead", kRecompilationPage,
       false},
      {"mark_dynamic",
       "call torch._dynamo.mark_dynamic(tensor, dim) on the varying dimension before the first call, or "
       "torch.compile(..., dynamic=True); or pad inputs to a few fixed sizes",
       "one dynamic-shape compile instead of one per shape; its kernels are generic over the size and can be slower",
       "the dimension is already dynamic (dynamic=True, mark_dynamic, or automatic dynamic after a recompile): its "
       "guard is then a range such as `2 <= x.size()[0]`, and dynamic=True changes nothing",
       kDynamicShapesPage, false},
      {"move_out_or_disable",
       "read the reason; move the code out of the compiled region or wrap it with torch.compiler.disable",
       "the code runs eagerly on every call, as it does now; torch.compiler.disable adds a break where it is called",
       "the code sits in the middle of the hot path: the graph stays split around it",
       "https://docs.pytorch.org/docs/stable/generated/torch.compiler.disable.html", false},
      // torch's own hints, passed through with their cost (fix_for_torch_hint).
      {"allow_rnn",
       "torch._dynamo.config.allow_rnn = True (torch's hint: experimental support), or leave the RNN eager "
       "(torch.compiler.disable on a function that calls it) and compile the rest",
       "Dynamo unrolls the RNN over the time dimension: compile time grows with the sequence length, and every new "
       "sequence length recompiles",
       "sequence lengths vary or are long (a recompile per length, each longer than the last)",
       "torch/_dynamo/config.py (allow_rnn: \"YMMV with backends\"); torch/_dynamo/variables/builder.py "
       "(\"experimental "
       "support for RNN, GRU, and LSTM\")",
       true},
      {"freezing", "torch._inductor.config.freezing = True (inference only)",
       "it bypasses the FX graph cache (\"Skipping graph with frozen constants\") and the AOTAutograd cache (\"Cannot "
       "cache a graph with freezing enabled\"): every start compiles cold; weights can no longer be updated",
       "the model trains, or start-up time matters more than steady calls",
       "torch/_inductor/codecache.py (_check_frozen_params); torch/_functorch/_aot_autograd/autograd_cache.py; "
       "torch/_inductor/config.py (freezing)",
       true},
      {"mark_unbacked",
       "torch._dynamo.decorators.mark_unbacked(tensor, dim) on that dimension (torch's own hint: the guard comes from "
       "its 0/1 specialization, not from your code)",
       "the size becomes unbacked: no 0/1 specialization, and code that branches on the size raises a data-dependent "
       "error instead of recompiling",
       "the code branches on that size (if x.size(0) == 1: ...)",
       "torch/fx/experimental/symbolic_shapes.py (\"to avoid specialization try "
       "torch._dynamo.decorators.mark_unbacked(tensor, dim)\")",
       true},
      {"dynamic_range",
       "keep sizes inside the range the compiled code was made for, or give the real range with "
       "torch._dynamo.mark_dynamic(x, dim, min=..., max=...)",
       "a compile per range left", "the sizes really do span more than one range", kDynamicShapesPage, true},
      {"nonstrict_trace",
       "torch._dynamo.nonstrict_trace on the function (torch's hint): Dynamo calls it without tracing its Python",
       "its inputs and outputs must be tensors or pytree-able values; its side effects are not replayed",
       "the function mutates state the graph reads", "https://docs.pytorch.org/docs/stable/torch.compiler_api.html",
       true},
      // Breaks inside a library the user does not edit: the user's handles for it.
      {"ddp_wrap_order",
       "compile the module inside DDP: DDP(torch.compile(model)) (or model.compile() before wrapping) instead of "
       "torch.compile(DDP(model)), so Dynamo never traces DDP's own forward; keep "
       "torch._dynamo.config.optimize_ddp at its default (\"ddp_optimizer\"), which splits the graph at DDP's "
       "gradient buckets so communication overlaps compute",
       "the graph is split at bucket boundaries either way; with optimize_ddp=False one graph and no "
       "communication/compute overlap",
       "compiled_autograd is on (optimize_ddp=\"python_reducer\" is the mode for it)",
       "https://docs.pytorch.org/docs/stable/compile/programming_model.where_to_apply_compile.html; "
       "torch/_dynamo/config.py (optimize_ddp)",
       true},
      {"fsdp_wrap_order",
       "compile the module inside the FSDP wrapper (torch.compile on the inner module or on each block before "
       "fully_shard / FSDP(...)), so Dynamo never traces the wrapper's own code",
       "a compile per wrapped block instead of one for the model",
       "the model is wrapped by a library that compiles "
       "it itself",
       kWhereToCompilePage, true},
      {"library_logging",
       "the call is in the library's own code, which you do not edit: before compiling, add the logger method to "
       "torch._dynamo.config.ignore_logging_functions (e.g. logging.Logger.warning: skipped while compiled) or "
       "reorderable_logging_functions (run after the graph), or quiet the library's logging (its set_verbosity / "
       "logging.getLogger(name).setLevel(logging.ERROR))",
       "an ignored call prints nothing while compiled; a reordered one prints after the graph",
       "you need those messages from the compiled code",
       "torch/_dynamo/config.py (ignore_logging_functions: ignored functions \"MUST return None\")", false},
      {"library_code",
       "the break is in the library's own code, which you do not edit: a newer release of it may avoid the break; "
       "torch.compiler.disable around the call keeps the rest compiled",
       "the library's code runs eagerly on every call, as it does now", "the library call is most of the work",
       "https://docs.pytorch.org/docs/stable/generated/torch.compiler.disable.html", false},
      {"stdlib_context_manager",
       "a standard-library context manager or function (contextlib, threading, ...) entered inside the compiled code: "
       "enter it outside the compiled function, or put the code that needs it under torch.compiler.disable",
       "the code under it runs eagerly on every call, as it does now",
       "it is entered by a library's own code: "
       "use that library's handle (for DDP and FSDP, the wrap order)",
       kTroubleshootingPage, false},
      // What `tct expect` suggests (expect/suggestions.cpp, expect/compiled.cpp): the fix's words
      // are the suggestion's own, these its terms.
      {"compile_as_is", "model = torch.compile(model)",
       "the compile itself (seconds to minutes, once per process without a warm cache), paid back only after enough "
       "calls",
       "the job makes few calls per process (`tct bench` prints the break-even)",
       "https://docs.pytorch.org/docs/stable/torch.compiler.html", false},
      {"reduce_overhead", "torch.compile(model, mode=\"reduce-overhead\") (CUDA graphs)",
       "CUDA graphs keep static input and output buffers (more memory), and each new input shape records a graph of "
       "its own",
       "input shapes change from call to call, or the code syncs with the host (.item(), prints)",
       "https://docs.pytorch.org/docs/stable/generated/torch.compile.html", true},
      {"larger_batch", "process more samples per call",
       "each call takes longer (latency) and holds more activations in memory", "latency per request is what counts",
       "https://docs.pytorch.org/docs/stable/torch.compiler_faq.html", false},
      {"python_out_of_hot_path", "move Python logic out of the hot path", "nothing at run time; the rewrite",
       "the Python decides per call what to compute",
       "https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html", false},
      {"max_autotune", "torch.compile(model, mode=\"max-autotune\")",
       "a much longer compile: inductor benchmarks candidate kernels (and CUDA graphs on GPU)",
       "the process is short-lived or compiles often",
       "https://docs.pytorch.org/docs/stable/generated/torch.compile.html", true},
      {"lower_precision", "bfloat16 (torch.autocast) or TF32 matmuls",
       "fewer mantissa bits: outputs move; check accuracy against float32",
       "the model is sensitive to precision, or the CPU has no bf16 units",
       "https://docs.pytorch.org/docs/stable/amp.html", true},
      {"static_or_dynamic", "mark the varying dimension dynamic, or keep a few fixed shapes",
       "dynamic: kernels generic over the size, can be slower; static: a compile per shape",
       "shapes are already few and fixed", "https://docs.pytorch.org/docs/stable/torch.compiler_dynamic_shapes.html",
       false},
      {"little_to_gain", "skip the compile for this model", "nothing: no compile to pay",
       "a later change moves the time out of vendor kernels",
       "https://docs.pytorch.org/docs/stable/torch.compiler.html", false},
      {"fix_breaks_first", "fix what breaks the graph first (tct explain shows each break and its own fix)",
       "each break's own fix, as tct explain gives it with its cost",
       "the break is inside a library you do not edit (tct explain gives the handle you have)",
       "https://docs.pytorch.org/docs/stable/torch.compiler_troubleshooting.html", false},
  };
  return table;
}

FixTerms terms_of(const FixEntry& e) {
  return {std::string(e.id), std::string(e.cost), std::string(e.not_when), std::string(e.source), e.untried, ""};
}

std::string fix_words(const FixTerms& t) {
  if (t.id.empty() && t.cost.empty()) return "";
  std::string out = "costs: " + (t.cost.empty() ? std::string("not known") : t.cost);
  if (!t.not_when.empty()) out += "; no fix when " + t.not_when;
  if (t.untried) {
    out += "; tct has not tried it on your inputs";
    if (!t.measured_by.empty()) out += " (" + t.measured_by + " measures it)";
  }
  return out;
}

std::string fix_with_terms(const std::string& fix, const FixTerms& t) {
  const std::string words = fix_words(t);
  return words.empty() || fix.empty() ? fix : fix + " (" + words + ")";
}

nlohmann::json to_json(const FixTerms& t) {
  nlohmann::json j = {
      {"id", t.id}, {"cost", t.cost}, {"not_when", t.not_when}, {"source", t.source}, {"untried", t.untried}};
  if (!t.measured_by.empty()) j["measured_by"] = t.measured_by;  // only where a command can measure it
  return j;
}

FixTerms fix_terms_from_json(const nlohmann::json& j) {
  FixTerms t;
  if (!j.is_object()) return t;
  auto str = [&](const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : ""; };
  t.id = str("id");
  t.cost = str("cost");
  t.not_when = str("not_when");
  t.source = str("source");
  t.untried = j.contains("untried") && j["untried"].is_boolean() && j["untried"].get<bool>();
  t.measured_by = str("measured_by");
  return t;
}

const FixEntry& fix_entry(std::string_view id) {
  const auto& t = fix_table();
  for (const auto& e : t)
    if (e.id == id) return e;
  for (const auto& e : t)
    if (e.id == "move_out_or_disable") return e;
  return t.front();
}

bool is_generic_torch_hint(std::string_view hint) {
  // torch/_dynamo/graph_break_hints.py: USER_ERROR, DYNAMO_BUG, DIFFICULT, FUNDAMENTAL,
  // SUPPORTABLE, CAUSED_BY_EARLIER_GRAPH_BREAK.
  return hint_names(hint, "report an issue") || hint_names(hint, "Report an issue") ||
         hint_names(hint, "graph break is fundamental") || hint_names(hint, "caused by an earlier graph break") ||
         hint_names(hint, "Your code may result in an error when running in eager") ||
         hint_names(hint, "Dynamo tracing rules");
}

std::optional<FixEntry> fix_for_torch_hint(std::string_view hint) {
  // The setting or function a torch hint names, as its hint text spells it (torch 2.13-2.15:
  // builder.py's allow_rnn, symbolic_shapes.py's mark_unbacked, the registry's
  // capture_scalar_outputs / capture_dynamic_output_shape_ops, nonstrict_trace).
  static constexpr std::pair<std::string_view, std::string_view> names[] = {
      {"allow_rnn", "allow_rnn"},
      {"mark_unbacked", "mark_unbacked"},
      {"capture_dynamic_output_shape_ops", "capture_dynamic_output_shape_ops"},
      {"capture_scalar_outputs", "keep_scalar_a_tensor"},
      {"freezing", "freezing"},
      {"nonstrict_trace", "nonstrict_trace"},
      {"optimize_ddp", "ddp_wrap_order"},
      {"trace_numpy", "torch_for_numpy"},
      {"torch.cond", "torch_cond"},
      {"mark_dynamic", "mark_dynamic"},
  };
  for (const auto& [needle, id] : names)
    if (hint_names(hint, needle)) return fix_entry(id);
  return std::nullopt;
}

}  // namespace tct::core
