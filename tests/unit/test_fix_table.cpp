// Every fix tct prints carries its cost, its conditions and their source (core/fix_table.cpp),
// and one break gets one fix in every command (core::break_fix): the catalog's kinds, torch's
// own hints passed through, breaks inside DDP, a library or the standard library, and the
// recompile causes (core::recompile_fix). The reason texts are torch's own, as 2.13 logs them.
#include <gtest/gtest.h>

#include <set>

#include "core/fix_table.hpp"
#include "core/hint_catalog.hpp"
#include "core/recompile_guard.hpp"

using namespace tct::core;

namespace {

bool has(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

// torch/_dynamo/variables/builder.py's GRU break as the logged run writes it (torch 2.13).
const std::string kGruReason =
    "Encountered graph break that we cannot resume from. Compiling up to the previous resumable state, then "
    "skipping the rest of the function. Graph break encountered:\n\nAttempted to wrap RNN, GRU, or LSTM\n"
    "  Explanation: Dynamo does not support RNN, GRU, or LSTM.\n  Hint: Set torch._dynamo.config.allow_rnn=True to "
    "enable experimental support for RNN, GRU, and LSTM in Dynamo\n  Hint: It may be possible to write Dynamo "
    "tracing rules for this code. Please report an issue to PyTorch if you encounter this graph break often and it "
    "is causing performance issues.\n\n  Developer debug context: GRU(8, 8, batch_first=True)\n\n For more details "
    "about this graph break, please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0014.html";

}  // namespace

TEST(FixTable, EveryEntryHasItsCostConditionsAndSource) {
  std::set<std::string_view> ids;
  for (const auto& e : fix_table()) {
    EXPECT_TRUE(ids.insert(e.id).second) << e.id;
    EXPECT_FALSE(e.fix.empty()) << e.id;
    EXPECT_FALSE(e.cost.empty()) << e.id;
    EXPECT_FALSE(e.not_when.empty()) << e.id;
    EXPECT_FALSE(e.source.empty()) << e.id;
    // A source is a torch documentation page or a file of torch's own source.
    EXPECT_TRUE(e.source.rfind("https://docs.pytorch.org/", 0) == 0 || e.source.rfind("torch/", 0) == 0) << e.id;
  }
  // The entries issue 43 names, with the costs it found.
  EXPECT_TRUE(has(std::string(fix_entry("allow_rnn").cost), "sequence length"));
  EXPECT_TRUE(fix_entry("allow_rnn").untried);
  EXPECT_TRUE(has(std::string(fix_entry("freezing").cost), "FX graph cache"));
  EXPECT_TRUE(has(std::string(fix_entry("freezing").cost), "AOTAutograd cache"));
  EXPECT_TRUE(has(std::string(fix_entry("mark_dynamic").not_when), "already dynamic"));
}

TEST(FixTable, EveryCatalogKindAndRecompileCauseCarriesItsTerms) {
  for (int i = 0; i <= static_cast<int>(BreakKind::Other); ++i) {
    const Hint& h = catalog_hint(static_cast<BreakKind>(i));
    EXPECT_FALSE(h.terms.id.empty()) << i;
    EXPECT_FALSE(h.terms.cost.empty()) << i;
    EXPECT_FALSE(h.terms.source.empty()) << i;
    EXPECT_EQ(h.fix, fix_entry(h.terms.id).fix) << i;
  }
  for (int i = 0; i <= static_cast<int>(RecompileCause::Other); ++i) {
    const RecompileAdvice& a = advice_for(static_cast<RecompileCause>(i));
    EXPECT_FALSE(a.cost.empty()) << a.name;
    EXPECT_FALSE(a.source.empty()) << a.name;
  }
}

TEST(FixTable, AllowRnnIsNeverWithoutItsCost) {
  const BreakKind kind = classify_reason(kGruReason);
  const Hint h = break_fix(break_site(kind, "/job/kws.py", {}, kGruReason));
  EXPECT_TRUE(has(h.fix, "allow_rnn")) << h.fix;
  EXPECT_EQ(h.terms.id, "allow_rnn");
  const std::string words = fix_words(h.terms);
  EXPECT_TRUE(has(words, "unrolls the RNN over the time dimension")) << words;
  EXPECT_TRUE(has(words, "every new sequence length recompiles")) << words;
  EXPECT_TRUE(has(words, "tct has not tried it on your inputs")) << words;
  // Through explain's path (the registry's hints from the same reason) the same fix.
  const nlohmann::json registry = {{"id", "GB0014"},
                                   {"hints", split_reason(kGruReason).hints},
                                   {"explanation", "Dynamo does not support RNN, GRU, or LSTM."},
                                   {"url", ""}};
  BreakSite bare;
  bare.kind = kind;
  bare.file = "/job/kws.py";
  const Hint e = hint_for(bare, registry);
  EXPECT_EQ(e.fix, h.fix);
  EXPECT_EQ(e.terms.id, h.terms.id);
}

TEST(FixTable, TorchsGenericHintsAreNoFixAndAnUnknownOneIsUntried) {
  BreakSite s;
  s.kind = BreakKind::Other;
  s.torch_hints = {
      "This graph break is fundamental - it is unlikely that Dynamo will ever be able to trace through "
      "your code. Consider finding a workaround."};
  EXPECT_EQ(break_fix(s).terms.id, "move_out_or_disable");
  s.torch_hints.push_back("Use torch.foo_bar() instead of the thing.");
  const Hint h = break_fix(s);
  EXPECT_EQ(h.fix, "Use torch.foo_bar() instead of the thing.");
  EXPECT_EQ(h.terms.id, "torch_hint");
  EXPECT_TRUE(h.terms.untried);
  EXPECT_TRUE(has(fix_words(h.terms), "not known")) << fix_words(h.terms);
  // A kind the catalog has a fix for keeps the catalog's fix (with its cost), whatever torch hints.
  s.kind = BreakKind::ItemScalar;
  EXPECT_EQ(break_fix(s).terms.id, "keep_scalar_a_tensor");
}

TEST(FixTable, BreaksInsideALibraryGetTheUsersHandle) {
  // Both of issue 45's DDP breaks: the logger call in DDP's forward, and contextlib under it.
  const std::string ddp = "/v/lib/python3.11/site-packages/torch/nn/parallel/distributed.py";
  const std::vector<Frame> stack = {
      {"/job/train_ddp.py", 40, "main", ""}, {ddp, 1693, "forward", ""}, {ddp, 1757, "_pre_forward", ""}};
  const Hint print = break_fix(break_site(BreakKind::PrintLogging, ddp, stack, ""));
  EXPECT_EQ(print.terms.id, "ddp_wrap_order");
  EXPECT_TRUE(has(print.fix, "DDP(torch.compile(model))")) << print.fix;
  EXPECT_TRUE(has(print.fix, "optimize_ddp")) << print.fix;
  EXPECT_FALSE(has(print.fix, "move the print")) << print.fix;
  EXPECT_TRUE(print.terms.untried);
  std::vector<Frame> with_ctx = stack;
  with_ctx.push_back({"/usr/lib/python3.11/contextlib.py", 105, "__enter__", ""});
  const Hint ctx =
      break_fix(break_site(BreakKind::UnsupportedBuiltin, "/usr/lib/python3.11/contextlib.py", with_ctx, ""));
  EXPECT_EQ(ctx.terms.id, "ddp_wrap_order");
  EXPECT_FALSE(has(ctx.fix, "custom op")) << ctx.fix;
  // FSDP's wrapper, transformers' logging, a context manager of the standard library alone.
  EXPECT_EQ(break_fix(break_site(BreakKind::Other,
                                 "/v/site-packages/torch/distributed/fsdp/_fully_shard/_fsdp_state.py", {}, ""))
                .terms.id,
            "fsdp_wrap_order");
  const Hint tf = break_fix(
      break_site(BreakKind::PrintLogging, "/v/lib/python3.11/site-packages/transformers/modeling_utils.py", {}, ""));
  EXPECT_EQ(tf.terms.id, "library_logging");
  EXPECT_TRUE(has(tf.fix, "transformers's own code") && has(tf.fix, "getLogger(\"transformers\")")) << tf.fix;
  EXPECT_EQ(break_fix(break_site(BreakKind::UnsupportedBuiltin, "/usr/lib/python3.11/contextlib.py", {}, "")).terms.id,
            "stdlib_context_manager");
  EXPECT_EQ(stdlib_module("/usr/lib/python3.11/contextlib.py"), "contextlib");
  EXPECT_EQ(stdlib_module("/usr/lib/python3.11/site-packages/x.py"), "");
  EXPECT_EQ(stdlib_module("/job/contextlib.py"), "");
}

TEST(FixTable, ARecompileUnderDynamicTrueGetsTorchsHintNotDynamicTrue) {
  // torch 2.13's guard failure for a size that is already symbolic (dynamic=True), with the note
  // symbolic_shapes.py adds for its 0/1 specialization.
  const auto failures = parse_guard_failures(
      "0/0: 2 <= x.size()[0]  # return x.sin() * 2  # mp/advice/dyn.py:4 in f (user code shown is first use of this "
      "value--the guard itself is not due user code but due to 0/1 specialization in the framework; to avoid "
      "specialization try torch._dynamo.decorators.mark_unbacked(tensor, dim))");
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_EQ(failures[0].line, 4);
  EXPECT_TRUE(has(failures[0].torch_note, "mark_unbacked"));
  EXPECT_TRUE(is_dynamic_size_guard(failures[0]));
  const RecompileFix f = recompile_fix(failures[0]);
  EXPECT_EQ(f.cause, RecompileCause::Size);
  EXPECT_EQ(f.terms.id, "mark_unbacked");
  EXPECT_TRUE(has(f.fix, "mark_unbacked") && has(f.fix, "dynamic=True is no fix")) << f.fix;
  EXPECT_FALSE(has(f.fix, "torch.compile(..., dynamic=True)")) << f.fix;
  // A range guard without torch's note: the range, not dynamic=True.
  const auto range = parse_guard_failures("1/0: L['frames'].size()[0] <= 15  # h = self.rnn(frames)  # kws.py:37 in f");
  EXPECT_EQ(recompile_fix(range[0]).terms.id, "dynamic_range");
  // A static shape's mismatch: mark_dynamic is the fix, with its cost.
  const auto fixed = parse_guard_failures("0/0: tensor 'x' size mismatch at index 0. expected 4, actual 8");
  const RecompileFix s = recompile_fix(fixed[0]);
  EXPECT_EQ(s.terms.id, "size");
  EXPECT_TRUE(has(s.fix, "mark_dynamic"));
  EXPECT_FALSE(s.terms.cost.empty());
  // explain and trace read the same choice.
  EXPECT_EQ(recompile_hint({"0/0: 2 <= x.size()[0]  # y  # a.py:1 in f (to avoid specialization try "
                            "torch._dynamo.decorators.mark_unbacked(tensor, dim))"})
                .terms.id,
            "mark_unbacked");
}

// The ids the commands name exist in the table (fix_entry falls back to the generic entry for an
// unknown one, which would print the wrong cost without failing).
TEST(FixTable, EveryIdACommandNamesIsInTheTable) {
  for (const char* id : {"compile_as_is", "reduce_overhead", "larger_batch", "python_out_of_hot_path", "max_autotune",
                         "lower_precision", "static_or_dynamic", "little_to_gain", "fix_breaks_first", "allow_rnn",
                         "freezing", "mark_unbacked", "dynamic_range", "ddp_wrap_order", "fsdp_wrap_order",
                         "library_logging", "library_code", "stdlib_context_manager"})
    EXPECT_EQ(fix_entry(id).id, id);
}
