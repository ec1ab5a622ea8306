// libFuzzer target for the TORCH_TRACE reader (src/trace/reader.cpp) and what reads its
// records (trace/summary.cpp, break_payload.cpp: break payloads, tracebacks, file names, the
// summary `tct trace` and `tct explain` build, the TraceResult and its JSON, payload MD5s, compile-id resets, restart
// reasons, compiles without ids, the multi-rank checks' payloads, JSON payloads checked by simdjson and hashed when
// they do not parse, edited payloads read on, "\r\n" and "\r" line ends split across chunks, the spots the reader
// notes): any bytes, fed in chunks whose sizes the input picks, with every MD5 checked (--strict) or only those
// the answer needs, must neither crash nor trip ASan/UBSan. Built only with -DTCT_FUZZ=ON and
// clang (see CMakeLists.txt); corpus: tests/fuzz/corpus/.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "trace/json.hpp"
#include "trace/summarize.hpp"
#include "trace/summary.hpp"
#include "trace/reader.hpp"
#include "trace/result.hpp"

namespace {

class Touch : public tct::trace::Sink {
 public:
  size_t sum = 0;
  bool wants_payload(const tct::trace::Record& r) override { return r.kind.size() % 2 == 0; }
  void on_record(const tct::trace::Record& r, std::string_view payload) override {
    // Read everything the record exposes, as a consumer would.
    sum += r.kind.size() + payload.size() + r.timestamp.size() + r.id.str().size() + r.payload_damaged +
           r.payload_edited;
    std::string_view s;
    if (r.body.get_string().get(s) == simdjson::SUCCESS) sum += s.size();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t chunk = 1 + data[0] % 64;         // the first byte picks the chunk size,
  bool check_every_md5 = data[0] & 0x80;  // and whether every payload is hashed (--strict)
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  Touch sink;
  tct::trace::Reader reader(sink, 4096, check_every_md5);
  for (size_t i = 0; i < text.size(); i += chunk) reader.feed(text.substr(i, chunk));
  reader.finish();
  for (const auto* spots : {&reader.stats().damaged_at, &reader.stats().edited_at})
    for (const auto& s : *spots) sink.sum += tct::trace::describe(s).size();
  // The same bytes through the summary's collector (whole payloads), then the summary:
  // rank 0 reads them all, rank 1 the first half, so the cross-rank checks (compile ids,
  // collective schedules, execution order, cache sequences, tensor metadata) compare two
  // summaries that differ.
  std::vector<tct::trace::RankSummary> ranks(2);
  for (size_t i = 0; i < ranks.size(); ++i) {
    ranks[i].rank = static_cast<int>(i);
    tct::trace::RankCollector collector(ranks[i]);
    tct::trace::Reader summary_reader(collector, 4096, check_every_md5);
    summary_reader.feed(i == 0 ? text : text.substr(0, text.size() / 2));
    summary_reader.finish();
  }
  // As cli::render_json writes it (invalid UTF-8 replaced).
  sink.sum += tct::trace::to_json(tct::trace::summarize("fuzz", ranks)).dump(2, ' ', false, nlohmann::json::error_handler_t::replace).size();
  return 0;
}
