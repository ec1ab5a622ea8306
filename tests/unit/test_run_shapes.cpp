// The shapes a site's calls used (run/shapes.hpp): the per-dimension fold of the bootstrap's
// counts, and the recompiles each dimension caused, read from torch 2.13's own guard texts.
#include <gtest/gtest.h>

#include "run/shapes.hpp"

using namespace tct::run;

TEST(RunShapes, SizedDimFromTorchsGuardTexts) {
  // Both texts as torch 2.13.0 logs them (TORCH_LOGS=recompiles on a batch that varies).
  EXPECT_EQ(sized_dim_of("tensor 'x' size mismatch at index 0. expected 4, actual 2"),
            std::make_pair(std::string("x"), 0));
  EXPECT_EQ(sized_dim_of("2 <= x.size()[0]  # def f(x, y): return (x * 2 + y).sum()"),
            std::make_pair(std::string("x"), 0));
  EXPECT_EQ(sized_dim_of("tensor 'L['frames']' size mismatch at index 2. expected 40, actual 41"),
            std::make_pair(std::string("frames"), 2));
  EXPECT_FALSE(sized_dim_of("banned[0] == 30"));
}

TEST(RunShapes, VariedDimsWithTheirCallsAndRecompiles) {
  SiteRecord rec;
  rec.arg_names = {"x"};
  rec.shapes.push_back({{std::vector<int64_t>{4, 3}, std::nullopt}, {{"y", {3}}}, 10});
  rec.shapes.push_back({{std::vector<int64_t>{2, 3}, std::nullopt}, {{"y", {3}}}, 5});
  rec.shapes.push_back({{std::vector<int64_t>{8, 3}, std::vector<int64_t>{7}}, {{"y", {3}}}, 1});
  rec.shapes_other_calls = 2;
  FrameCompile first{"0/0", "0", "f"}, second{"0/1", "0", "f"}, third{"0/2", "0", "f"};
  second.recompile_reasons = {"0/0: tensor 'x' size mismatch at index 0. expected 4, actual 2"};
  third.recompile_reasons = {"0/1: 2 <= x.size()[0]\n0/0: tensor 'x' size mismatch at index 0. expected 4, actual 1"};
  const auto use = shape_use_of(rec, {first, second, third});
  ASSERT_TRUE(use);
  EXPECT_EQ(use->calls, 18);
  EXPECT_EQ(use->shapes, 3);
  EXPECT_EQ(use->other_calls, 2);
  ASSERT_EQ(use->varied.size(), 1u);  // x's dim 0; x's dim 1 and y kept one size, arg 1 came once
  const VariedDim& v = use->varied[0];
  EXPECT_EQ(v.input, "x");
  EXPECT_EQ(v.dim, 0);
  ASSERT_EQ(v.sizes.size(), 3u);
  EXPECT_EQ(v.sizes[0].size, 2);
  EXPECT_EQ(v.sizes[0].calls, 5);
  EXPECT_EQ(v.sizes[2].size, 8);
  EXPECT_EQ(v.recompiles, 2);
  EXPECT_FALSE(shape_use_of(SiteRecord{}, {}));
}
