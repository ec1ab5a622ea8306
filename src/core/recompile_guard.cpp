#include "core/recompile_guard.hpp"

#include <algorithm>

namespace tct::core {
namespace {

std::string strip_blanks(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool mentions(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

// "tests/serve.py:23 in forward (_dynamo/utils.py:4231 in run_node)" -> file, line; a note of
// torch's in the parentheses ("user code shown is first use of this value...") -> torch_note.
void parse_location(std::string_view where, GuardFailure& g) {
  std::string w = strip_blanks(where);
  if (auto open = w.find(" ("); open != std::string::npos) {
    std::string note = w.substr(open + 2);
    if (!note.empty() && note.back() == ')') note.pop_back();
    if (note.find(".py:") == std::string::npos) g.torch_note = note;  // torch's frame is no note
  }
  if (auto in = w.find(" in "); in != std::string::npos) w.resize(in);
  if (auto colon = w.rfind(':'); colon != std::string::npos) {
    try {
      g.line = std::stoi(w.substr(colon + 1));
      g.file = w.substr(0, colon);
    } catch (const std::exception&) { g.file = w; }
  }
}

// The guard's value left out: "banned[0] == 30" -> "banned[0] == ...", value "30";
// "tensor 'x' size mismatch at index 1. expected 16, actual 24" -> "... at index 1", "16".
// Plain string search, no std::regex: libstdc++'s recurses per character and a long guard
// (torch pads them with spaces) overflows the stack.
void split_value(GuardFailure& g) {
  const std::string& s = g.guard;
  if (const auto m = s.find("mismatch"); m != std::string::npos) {
    const auto dot = s.find(". expected ", m);
    if (dot != std::string::npos) {
      const auto comma = s.find(',', dot);
      g.pattern = s.substr(0, dot);
      g.value = strip_blanks(s.substr(dot + 11, comma == std::string::npos ? std::string::npos : comma - dot - 11));
      return;
    }
  }
  for (std::string_view op : {" == ", " != ", " is not ", " is "}) {
    if (const auto at = s.find(op); at != std::string::npos) {
      g.pattern = s.substr(0, at) + std::string(op) + "...";
      g.value = strip_blanks(s.substr(at + op.size()));
      return;
    }
  }
  g.pattern = s;
}

GuardFailure parse_line(std::string_view text, std::optional<int> entry) {
  GuardFailure g;
  g.entry = entry;
  // "guard  # the user's line  # file:line in function (torch's own frame)"
  const auto first = text.find(" # ");
  g.guard = strip_blanks(text.substr(0, first));
  if (first != std::string_view::npos) {
    std::string_view rest = text.substr(first + 3);
    const auto last = rest.rfind(" # ");
    if (last != std::string_view::npos) {
      g.code = strip_blanks(rest.substr(0, last));
      parse_location(rest.substr(last + 3), g);
    } else {
      g.code = strip_blanks(rest);
    }
  }
  split_value(g);
  return g;
}

}  // namespace

// "12/3: rest" -> entry 3 and the rest; nullopt for a line in another shape.
std::optional<std::pair<int, std::string_view>> entry_of(std::string_view line) {
  size_t i = line.find_first_not_of(' ');
  if (i == std::string_view::npos) return std::nullopt;
  auto digits = [&](size_t from) {
    size_t j = from;
    while (j < line.size() && line[j] >= '0' && line[j] <= '9') ++j;
    return j;
  };
  const size_t frame_end = digits(i);
  if (frame_end == i || frame_end >= line.size() || line[frame_end] != '/') return std::nullopt;
  const size_t entry_end = digits(frame_end + 1);
  if (entry_end == frame_end + 1 || line.substr(entry_end, 2) != ": ") return std::nullopt;
  return std::make_pair(std::stoi(std::string(line.substr(frame_end + 1, entry_end - frame_end - 1))),
                        line.substr(entry_end + 2));
}

std::vector<GuardFailure> parse_guard_failures(std::string_view text) {
  std::vector<GuardFailure> out;
  std::string first_line;
  size_t pos = 0;
  while (pos < text.size()) {
    const auto nl = text.find('\n', pos);
    const std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (auto e = entry_of(line)) out.push_back(parse_line(e->second, e->first));
    else if (first_line.empty() && !strip_blanks(line).empty()) first_line = strip_blanks(line);
  }
  if (out.empty() && !first_line.empty()) out.push_back(parse_line(first_line, std::nullopt));
  return out;
}

std::optional<GuardFailure> newest_guard_failure(const std::vector<std::string>& reasons) {
  std::optional<GuardFailure> best;
  for (const auto& r : reasons)
    for (auto& g : parse_guard_failures(r))
      if (!best || g.entry.value_or(-1) > best->entry.value_or(-1)) best = std::move(g);
  return best;
}

RecompileCause classify_guard(const GuardFailure& g) {
  const std::string& s = g.guard;
  if (mentions(s, "size mismatch") || mentions(s, "rank mismatch") || mentions(s, ".size()"))
    return RecompileCause::Size;
  if (mentions(s, "stride mismatch") || mentions(s, ".stride()")) return RecompileCause::Stride;
  if (mentions(s, "dtype mismatch")) return RecompileCause::Dtype;
  if (mentions(s, "device mismatch")) return RecompileCause::Device;
  if (mentions(s, "requires_grad") || mentions(s, "grad_mode") || mentions(s, "GLOBAL_STATE"))
    return RecompileCause::GradMode;
  if (mentions(s, "___check_obj_id") || mentions(s, "ID_MATCH") || mentions(s, "id(")) return RecompileCause::Identity;
  if (mentions(s, "___check_type_id") || mentions(s, "TYPE_MATCH")) return RecompileCause::Type;
  if (mentions(s, " == ") || mentions(s, " != ")) {
    const std::string lhs = s.substr(0, s.find(" =="));
    return mentions(lhs, "self.") || mentions(lhs, "L['self']") ? RecompileCause::ModuleAttribute
                                                                : RecompileCause::PythonValue;
  }
  return RecompileCause::Other;
}

const RecompileAdvice& advice_for(RecompileCause c) {
  // torch's recompilation guide: the source of each cause's fix and cost below, unless named.
  static constexpr std::string_view guide =
      "https://docs.pytorch.org/docs/main/user_guide/torch_compiler/compile/programming_model.recompilation.html";
  static const RecompileAdvice table[] = {
      {RecompileCause::PythonValue, "python_value",
       "a Python number, string or list passed in is specialized by value: each new value compiles again",
       "pass the values as a tensor (e.g. torch.tensor(values)) and index or mask with it, so a new value is data, "
       "not a new guard",
       "one compile for all values instead of one per value", "the value picks code paths (a string, a flag)", guide,
       false},
      {RecompileCause::ModuleAttribute, "module_attribute",
       "a number held on an nn.Module (an attribute the code changes) is specialized by value",
       "keep it in a tensor (self.register_buffer) or set torch._dynamo.config.allow_unspec_int_on_nn_module = True",
       "one compile instead of one per value; with the setting the number becomes a symbolic int, and a branch on it "
       "guards again",
       "the number picks code paths (if self.step % 20 == 0: the branch guards on it either way)",
       "torch/_dynamo/config.py (allow_unspec_int_on_nn_module)", false},
      {RecompileCause::Size, "size", "an input's shape changed: code specialized to the old shape compiles again",
       "torch._dynamo.mark_dynamic(x, dim) on the varying dimension before the first call, or "
       "torch.compile(..., dynamic=True); or pad inputs to a few fixed sizes",
       "one dynamic-shape compile instead of one per shape; its kernels can be a little slower",
       "the dimension is already dynamic (its guard is a range such as `2 <= x.size()[0]`)",
       "https://docs.pytorch.org/docs/stable/torch.compiler_dynamic_shapes.html", true},
      {RecompileCause::Stride, "stride", "an input's memory layout (strides) changed",
       "make the input contiguous (x.contiguous()) before the call", "a copy per call where it was not contiguous",
       "the layout is what a later op needs (channels_last): then keep that layout for every call", guide, false},
      {RecompileCause::Dtype, "dtype", "an input's dtype changed", "cast inputs to one dtype before the call",
       "a cast per call", "the dtypes differ on purpose (mixed precision per call): compile once per dtype", guide,
       false},
      {RecompileCause::Device, "device", "an input moved to another device", "keep inputs on one device",
       "a copy where they were elsewhere", "the job runs on several devices on purpose: one compile each", guide,
       false},
      {RecompileCause::GradMode, "grad_mode", "grad mode or requires_grad changed between calls",
       "call it under one grad mode, or compile one object for training and one for torch.no_grad() inference",
       "one compile per mode, made once", "", guide, false},
      {RecompileCause::Identity, "identity", "a new object each call (a lambda, module or list made anew)",
       "create the object once and reuse it", "nothing: the same object", "", guide, false},
      {RecompileCause::Type, "type", "an argument changed type between calls", "pass the same type every call",
       "nothing", "", guide, false},
      {RecompileCause::Other, "other", "a guard failed",
       "read the guard (tct run -v) and torch's recompilation guide: https://docs.pytorch.org/docs/main/user_guide/"
       "torch_compiler/compile/programming_model.recompilation.html",
       "not known until the guard is read", "", guide, false},
  };
  for (const auto& a : table)
    if (a.cause == c) return a;
  return table[std::size(table) - 1];
}

bool is_dynamic_size_guard(const GuardFailure& g) {
  const std::string& s = g.guard;
  if (!mentions(s, ".size()") || mentions(s, "mismatch")) return false;
  return mentions(s, " <= ") || mentions(s, " >= ") || mentions(s, " < ") || mentions(s, " > ");
}

RecompileFix recompile_fix(const GuardFailure& g) {
  RecompileFix out;
  out.cause = classify_guard(g);
  const RecompileAdvice& a = advice_for(out.cause);
  out.name = a.name;
  out.why = a.why;
  out.fix = a.fix;
  out.terms = {std::string(a.name), std::string(a.cost), std::string(a.not_when), std::string(a.source), a.untried, ""};
  const std::string_view kind = value_kind(g.value);
  if (out.cause == RecompileCause::PythonValue && (kind == "str" || kind == "bool")) {
    out.fix =
        "keep it to a few fixed values, or make the choice outside the compiled function and pass in what it "
        "selects";
    out.terms.cost = "one compile per value kept";
    out.terms.not_when = "";
    return out;
  }
  if (out.cause == RecompileCause::Size && is_dynamic_size_guard(g)) {
    out.why = "the dimension is already dynamic, and the new size left the range its compiled code holds for";
    // torch's own hint in its note (symbolic_shapes.py's 0/1 specialization), else the range.
    const FixEntry& e = fix_entry(mentions(g.torch_note, "mark_unbacked") ? "mark_unbacked" : "dynamic_range");
    out.fix = std::string(e.fix) + "; dynamic=True is no fix: it is already in effect";
    out.terms = terms_of(e);
  }
  return out;
}

std::string_view value_kind(std::string_view v) {
  if (v.empty()) return "value";
  if (v == "True" || v == "False") return "bool";
  if (v.front() == '\'' || v.front() == '"') return "str";
  const size_t start = v.front() == '-' ? 1 : 0;
  bool digit = false, point = false;
  for (size_t i = start; i < v.size(); ++i) {
    if (v[i] >= '0' && v[i] <= '9') digit = true;
    else if ((v[i] == '.' || v[i] == 'e' || v[i] == 'E' || v[i] == '+' || v[i] == '-') && i > start) point = true;
    else return v.substr(start) == "inf" || v == "nan" ? "float" : "value";
  }
  return !digit ? "value" : point ? "float" : "int";
}

}  // namespace tct::core
