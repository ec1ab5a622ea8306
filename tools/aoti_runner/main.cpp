// tct-aoti PACKAGE TENSORS_DIR OUT_DIR [CALLS] [MAX_MS]
// tct-aoti --serve PACKAGE TENSORS_DIR OUT_DIR
//
// Loads an AOTInductor package (torch::inductor::AOTIModelPackageLoader), calls it with the
// tensors tct's agent saved (tensors.json + tensors.bin, python/tct_agent/aoti_inputs.py),
// writes the first call's outputs to OUT_DIR in the same form (the check against eager),
// then times up to CALLS more calls (at most MAX_MS of them). One JSON line on stdout:
//   {"marks_ns": {main, inputs_loaded, package_loaded, first_output}, "steady_ns": [...],
//    "outputs": N}
// Marks are std::chrono::steady_clock (CLOCK_MONOTONIC on Linux: the clock tct reads when it
// launches this process), so tct splits launch-to-first-output into phases as it does for
// its Python agent. Raw facts only: tct computes every statistic.
//
// --serve (`tct bench --backend aoti`): the same load and first call, the same first line
// without steady_ns, then one JSON request a line on stdin, one reply a line on stdout, timed
// as the agent's bench ops time (python/tct_agent/timing.py):
//   {"op": "first_calls", "n": N, "max_ns": T} -> {"times_ns": [...]}      each call alone
//   {"op": "time_block", "which": "compiled"|"floor", "samples": S, "calls_per_sample": K,
//    "warmup_ns": W} -> {"samples_ns": [...], "wall_ns"}   W ns of untimed calls, then S
//    samples, each the mean of K back-to-back calls ("floor": an empty call, the loop's cost)
//   {"op": "exit"} -> exits.   A failed request: {"error": "first line of the reason"}.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <torch/csrc/inductor/aoti_package/model_package_loader.h>
#include <torch/torch.h>

namespace {

using json = nlohmann::json;

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

const std::map<std::string, at::ScalarType>& dtypes() {
  static const std::map<std::string, at::ScalarType> m = {
      {"float32", at::kFloat}, {"float64", at::kDouble}, {"float16", at::kHalf}, {"bfloat16", at::kBFloat16},
      {"int64", at::kLong},    {"int32", at::kInt},      {"int16", at::kShort},  {"int8", at::kChar},
      {"uint8", at::kByte},    {"bool", at::kBool}};
  return m;
}

std::string dtype_name(at::ScalarType t) {
  for (const auto& [name, type] : dtypes())
    if (type == t) return name;
  throw std::runtime_error(std::string("an output of dtype ") + c10::toString(t) + " cannot be written");
}

std::vector<at::Tensor> read_tensors(const std::string& dir) {
  std::ifstream meta_file(dir + "/tensors.json");
  const json meta = json::parse(meta_file);
  std::ifstream blob_file(dir + "/tensors.bin", std::ios::binary);
  const std::vector<char> blob((std::istreambuf_iterator<char>(blob_file)), std::istreambuf_iterator<char>());
  std::vector<at::Tensor> out;
  for (const auto& t : meta.at("tensors")) {
    const auto shape = t.at("shape").get<std::vector<int64_t>>();
    const auto offset = t.at("offset").get<size_t>(), nbytes = t.at("nbytes").get<size_t>();
    if (offset + nbytes > blob.size()) throw std::runtime_error(dir + "/tensors.bin is shorter than its index");
    at::Tensor x = torch::empty(shape, torch::TensorOptions().dtype(dtypes().at(t.at("dtype").get<std::string>())));
    if (nbytes != static_cast<size_t>(x.nbytes())) throw std::runtime_error("a tensor's size does not match its shape");
    std::memcpy(x.data_ptr(), blob.data() + offset, nbytes);
    out.push_back(x);
  }
  return out;
}

void write_tensors(const std::string& dir, const std::vector<at::Tensor>& tensors) {
  json index = json::array();
  std::ofstream blob(dir + "/tensors.bin", std::ios::binary);
  size_t offset = 0;
  for (const auto& t : tensors) {
    const at::Tensor c = t.detach().cpu().contiguous();
    const auto nbytes = static_cast<size_t>(c.nbytes());
    blob.write(static_cast<const char*>(c.data_ptr()), static_cast<std::streamsize>(nbytes));
    index.push_back({{"dtype", dtype_name(c.scalar_type())}, {"shape", c.sizes().vec()}, {"offset", offset}, {"nbytes", nbytes}});
    offset += nbytes;
  }
  std::ofstream(dir + "/tensors.json") << json{{"tensors", index}}.dump();
}

// The calls the agent's time_block makes: warmup_ns of untimed calls, then samples of cps calls.
template <class F>
std::vector<double> time_block(F&& fn, int samples, int cps, double warmup_ns) {
  for (const int64_t t0 = now_ns(); static_cast<double>(now_ns() - t0) < warmup_ns;) fn();
  std::vector<double> out;
  for (int i = 0; i < samples; ++i) {
    const int64_t t0 = now_ns();
    for (int k = 0; k < cps; ++k) fn();
    out.push_back(static_cast<double>(now_ns() - t0) / cps);
  }
  return out;
}

int serve(torch::inductor::AOTIModelPackageLoader& loader, const std::vector<at::Tensor>& inputs) {
  volatile int sink = 0;
  auto floor = [&sink] { sink = sink + 1; };
  auto call = [&] { loader.run(inputs); };
  for (std::string line; std::getline(std::cin, line);) {
    json reply;
    try {
      const json req = json::parse(line);
      const std::string op = req.value("op", "");
      if (op == "exit") break;
      const int64_t t0 = now_ns();
      if (op == "first_calls") {
        std::vector<double> times;
        const double max_ns = req.value("max_ns", 3e9);
        double spent = 0;
        for (int i = 0; i < req.value("n", 20) && (spent < max_ns || i < 3); ++i) {
          const int64_t c0 = now_ns();
          call();
          times.push_back(static_cast<double>(now_ns() - c0));
          spent += times.back();
        }
        reply = {{"times_ns", times}};
      } else if (op == "time_block") {
        const int samples = std::max(1, req.value("samples", 10)), cps = std::max(1, req.value("calls_per_sample", 1));
        const double warmup = req.value("warmup_ns", 0.0);
        reply = {{"samples_ns", req.value("which", "compiled") == "floor" ? time_block(floor, samples, cps, warmup)
                                                                       : time_block(call, samples, cps, warmup)}};
      } else {
        throw std::runtime_error("unknown request '" + op + "'");
      }
      reply["wall_ns"] = static_cast<double>(now_ns() - t0);
    } catch (const std::exception& e) {
      const std::string what = e.what();
      reply = {{"error", what.substr(0, what.find('\n'))}};
    }
    std::cout << reply.dump() << std::endl;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t start = now_ns();
  const bool serving = argc > 1 && std::string(argv[1]) == "--serve";
  if (serving) ++argv, --argc;
  if (argc < 4) {
    std::cerr << "usage: tct-aoti [--serve] PACKAGE TENSORS_DIR OUT_DIR [CALLS] [MAX_MS]\n";
    return 2;
  }
  const int calls = argc > 4 ? std::stoi(argv[4]) : 30;
  const double max_ns = (argc > 5 ? std::stod(argv[5]) : 300.0) * 1e6;
  try {
    // TCT_THREADS: torch's intra-op threads, as tct's agent sets them (and as `tct bench` passes
    // the agent's count). Set explicitly: on a loaded 2-core machine libtorch's default pool
    // of the same size ran a 64x256 linear at 24-32 ms a call, set_num_threads(2) at 0.19 ms.
    if (const char* t = std::getenv("TCT_THREADS"); t && std::atoi(t) > 0) at::set_num_threads(std::atoi(t));
    c10::InferenceMode no_grad;
    json marks = {{"main", start}};
    const std::vector<at::Tensor> inputs = read_tensors(argv[2]);
    marks["inputs_loaded"] = now_ns();
    torch::inductor::AOTIModelPackageLoader loader(argv[1]);
    marks["package_loaded"] = now_ns();
    const std::vector<at::Tensor> first = loader.run(inputs);
    marks["first_output"] = now_ns();
    write_tensors(argv[3], first);
    if (serving) {
      std::cout << json{{"marks_ns", marks}, {"outputs", first.size()}}.dump() << std::endl;
      return serve(loader, inputs);
    }
    // The calls after the first, each timed alone, as the agent's time_each does.
    std::vector<double> steady;
    double spent = 0;
    for (int i = 0; i < calls && (spent < max_ns || i < 3); ++i) {
      const int64_t t0 = now_ns();
      loader.run(inputs);
      const double dt = static_cast<double>(now_ns() - t0);
      steady.push_back(dt);
      spent += dt;
    }
    std::cout << json{{"marks_ns", marks}, {"steady_ns", steady}, {"outputs", first.size()}}.dump() << std::endl;
  } catch (const std::exception& e) {
    std::string what = e.what();
    std::cerr << "tct-aoti: " << what.substr(0, what.find('\n')) << "\n";
    return 3;
  }
  return 0;
}
