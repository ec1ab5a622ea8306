// Classification of torch's graph-break reasons (registry-era and older messages) and
// the hint catalog.
#include <gtest/gtest.h>

#include "core/graph_breaks.hpp"
#include "core/hint_catalog.hpp"

using namespace tct::core;

TEST(Hints, ClassifiesRegistryEraReasons) {
  EXPECT_EQ(classify_reason("Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace "
                            "builtin operator `print` with argument types ['str']\n  Hint: x"),
            BreakKind::PrintLogging);
  EXPECT_EQ(classify_reason("logging.Logger method not supported for non-export cases"), BreakKind::PrintLogging);
  EXPECT_EQ(classify_reason("Unsupported Tensor.item() call with capture_scalar_outputs=False"), BreakKind::ItemScalar);
  EXPECT_EQ(classify_reason("Data-dependent branching\n  Explanation: Detected data-dependent branching"),
            BreakKind::DataDependentControlFlow);
  EXPECT_EQ(classify_reason("attempted to trace numpy function unsupported by PyTorch"), BreakKind::Numpy);
  EXPECT_EQ(classify_reason("Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted graph break."),
            BreakKind::ExplicitGraphBreak);
  EXPECT_EQ(classify_reason("Attempt to trace generator\n  Explanation: Generators cannot be compiled directly"),
            BreakKind::Generator);
  EXPECT_EQ(classify_reason("Attempted to call function marked as skipped\n  Explanation: Dynamo does not know how "
                            "to trace the builtin `posix.getpid.` This function is either a Python builtin (e.g. "
                            "_warnings.warn) or a third-party C/C++ Python extension"),
            BreakKind::UnsupportedBuiltin);
  EXPECT_EQ(classify_reason("attempted to call sourceless user-defined object as a method"),
            BreakKind::NonTensorArgument);
  EXPECT_EQ(classify_reason("something new and strange"), BreakKind::Other);
}

// torch's registry decides first: GB0036 "Dynamic shape operator" (torch.nonzero) is its
// own kind with its own fix, not .item(); the text match only where the registry is silent.
TEST(Hints, RegistryIdAndGbTypeDecideFirst) {
  const std::string nonzero =
      "Dynamic shape operator\n  Explanation: Operator `aten.nonzero.default`'s output shape depends on input "
      "Tensor data.\n  Hint: Enable tracing of dynamic shape operators with "
      "`torch._dynamo.config.capture_dynamic_output_shape_ops = True`\n\n For more details about this graph break, "
      "please visit: https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0036.html";
  EXPECT_EQ(classify_reason(nonzero), BreakKind::DynamicShapeOperator);
  EXPECT_EQ(classify_reason("Dynamic shape operator (no meta kernel)\n  Explanation: x"),
            BreakKind::DynamicShapeOperator);
  EXPECT_EQ(registry_kind("GB0036", ""), BreakKind::DynamicShapeOperator);
  EXPECT_EQ(registry_kind("", "Data-dependent branching"), BreakKind::DataDependentControlFlow);
  EXPECT_EQ(registry_kind("GB0059", "Failed to trace builtin operator"), std::nullopt);  // the text decides
  EXPECT_EQ(registry_kind("GB9999", "new"), std::nullopt);
  EXPECT_NE(catalog_hint(BreakKind::DynamicShapeOperator).fix.find("capture_dynamic_output_shape_ops"),
            std::string::npos);
  EXPECT_EQ(catalog_hint(BreakKind::ItemScalar).fix.find("capture_dynamic_output_shape_ops"), std::string::npos);
  // The id wins over misleading text: an explicit break whose message mentions print.
  EXPECT_EQ(classify_reason("Call to `torch._dynamo.graph_break()`\n  Explanation: msg print `print`\n please visit: "
                            "https://x/gb/gb0025.html"),
            BreakKind::ExplicitGraphBreak);
}

TEST(Hints, RegistryIdOfReadsTheLinkOrABareId) {
  EXPECT_EQ(registry_id_of("x\n please visit: https://a.b/gb/gb0124.html"), "GB0124");
  EXPECT_EQ(registry_id_of("Graph break under GB0033"), "GB0033");
  EXPECT_EQ(registry_id_of("old torch reason"), "");
  EXPECT_EQ(split_reason("Data dependent\n please visit: https://a.b/gb/gb0033.html\n").url,
            "https://a.b/gb/gb0033.html");
}

TEST(Hints, GenericHintLinesDoNotDecideTheKind) {
  // torch adds "e.g. `print`" to hints of many builtins: only the head counts.
  EXPECT_EQ(classify_reason("Failed to trace builtin operator\n  Explanation: Dynamo does not know how to trace "
                            "builtin operator `setattr`\n  Hint: If you are attempting to call a logging function "
                            "(e.g. `print`), you can try adding it"),
            BreakKind::UnsupportedBuiltin);
}

TEST(Hints, ClassifiesOlderTorchReasons) {
  EXPECT_EQ(classify_reason("call_function BuiltinVariable(print) [ConstantVariable(str)] {}"),
            BreakKind::PrintLogging);
  EXPECT_EQ(classify_reason("generic_jump TensorVariable()"), BreakKind::DataDependentControlFlow);
  EXPECT_EQ(classify_reason("Tensor.item"), BreakKind::ItemScalar);
  EXPECT_EQ(classify_reason("call_function graph_break in skip_files"), BreakKind::ExplicitGraphBreak);
  EXPECT_EQ(classify_reason("call_function UserDefinedObjectVariable(foo) [] {}"), BreakKind::NonTensorArgument);
  EXPECT_EQ(classify_reason("call_function in skip_files /usr/lib/python3.11/os.py"), BreakKind::UnsupportedBuiltin);
}

TEST(Hints, ClassifiesRecompiles) {
  EXPECT_EQ(classify_recompile({"0/0: tensor 'L['x']' size mismatch at index 0. expected 4, actual 8"}),
            BreakKind::DynamicShapeRecompile);
  EXPECT_EQ(classify_recompile({"0/0: L['n'] == 3"}), BreakKind::NonTensorArgument);
  EXPECT_EQ(classify_recompile({"0/0: ___check_obj_id(L['cfg'], 1234)"}), BreakKind::NonTensorArgument);
  EXPECT_EQ(classify_recompile({}), BreakKind::Other);
}

TEST(Hints, EveryKindHasTextFixAndLinkAndRoundTrips) {
  for (int i = 0; i <= static_cast<int>(BreakKind::Other); ++i) {
    auto k = static_cast<BreakKind>(i);
    const Hint& h = catalog_hint(k);
    EXPECT_FALSE(h.text.empty()) << to_string(k);
    EXPECT_FALSE(h.fix.empty()) << to_string(k);
    EXPECT_EQ(h.url.rfind("https://", 0), 0u) << to_string(k);
    EXPECT_EQ(break_kind_from_string(to_string(k)), k);
  }
  EXPECT_NE(catalog_hint(BreakKind::ItemScalar).fix.find("capture_scalar_outputs"), std::string::npos);
  EXPECT_NE(catalog_hint(BreakKind::DataDependentControlFlow).fix.find("torch.cond"), std::string::npos);
  EXPECT_NE(catalog_hint(BreakKind::DynamicShapeRecompile).fix.find("mark_dynamic"), std::string::npos);
  EXPECT_FALSE(break_kind_from_string("nope").has_value());
}

TEST(Hints, RegistryPreferredForTextAndLink) {
  nlohmann::json reg = {{"id", "GB0124"},
                        {"explanation", "torch says why"},
                        {"hints", {"torch hint"}},
                        {"url", "https://example.org/gb0124.html"}};
  Hint h = hint_for(BreakKind::ItemScalar, reg);
  EXPECT_EQ(h.text, "torch says why");
  EXPECT_EQ(h.url, "https://example.org/gb0124.html");
  EXPECT_EQ(h.fix, catalog_hint(BreakKind::ItemScalar).fix);  // the catalog's fix stays
  EXPECT_EQ(hint_for(BreakKind::Other, reg).fix, "torch hint");
  EXPECT_EQ(hint_for(BreakKind::Numpy, nullptr).text, catalog_hint(BreakKind::Numpy).text);
}

TEST(Hints, SplitsReason) {
  auto p = split_reason(
      "Encountered graph break when attempting to trace CALL:\n\nUnsupported Tensor.item() call\n  Explanation: "
      "no.\n  Hint: one\n  Hint: two\n\n For more details about this graph break, please visit: "
      "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0124.html");
  EXPECT_EQ(p.headline, "Unsupported Tensor.item() call");
  EXPECT_EQ(p.explanation, "no.");
  ASSERT_EQ(p.hints.size(), 2u);
  EXPECT_EQ(p.hints[1], "two");
  EXPECT_EQ(p.url, "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0124.html");
}

// Which of torch's texts mean a skipped frame: one rule (core::skips_frame) for the trace's fail
// reasons, explain, and bench's raw counters["unimplemented"] keys from the agent.
TEST(Hints, SkippedFrameIsOneRule) {
  EXPECT_TRUE(
      skips_frame("Failed to handle graph break gracefully. Skipping the function and falling back to eager. "
                  "Graph break encountered:\nprint"));
  EXPECT_TRUE(skips_frame("Skipping frame because there is a graph break in a for/while loop"));
  EXPECT_TRUE(skips_frame("call_function UserDefinedObjectVariable: Skipping the frame"));
  EXPECT_FALSE(skips_frame("Unsupported Tensor.item() call"));
  const SkipSplit split = split_skip(
      "Graph break encountered:\nUnsupported Tensor.item() call\n*** While handling this graph break, another graph "
      "break occurred: ***\nSkipping the frame: graph break in loop");
  EXPECT_TRUE(split.skipped);
  EXPECT_EQ(split.cause, "Unsupported Tensor.item() call");
  EXPECT_EQ(split.skip_reason, "Skipping the frame: graph break in loop");
}
