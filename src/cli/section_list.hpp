#pragma once
// The machinery behind the registry (cli/registry.hpp): a list of section descriptors, the
// Outcome's slots made from it (one std::optional of each descriptor's Result), a walk over the
// list, and the descriptor of a Result. A descriptor lives in its command's folder
// (src/<command>/section.hpp) and declares:
//   using Result;                     the command's typed result
//   key                               the document's section ("bench"), and the HTML anchor
//   page, answer                      its place on the HTML page (cards and section) and among
//                                     the answers a report leads with (lower first)
//   toc                               the HTML contents' label (nullptr: no section of its own)
//   to_json(r), from_json(section)    its codec (the folder's json.cpp)
//   text, markdown                    its renderings; and optionally brief (the default terminal
//                                     report; else text), html, cards, answers, and warnings
//                                     (the result's warnings, gathered into the outcome's list)
// A rendering takes the result, or the result and the whole Outcome (a template parameter, so
// no command folder includes cli/) when it reads another section or the environment.
#include <optional>
#include <tuple>
#include <type_traits>

namespace tct::cli {

template <class... S>
struct SectionList {
  // The Outcome's slots: one optional Result per section, in the list's order.
  using Slots = std::tuple<std::optional<typename S::Result>...>;
  // f(std::type_identity<S>{}) for each descriptor, in the list's order.
  template <class F>
  static void each(F&& f) {
    (f(std::type_identity<S>{}), ...);
  }
};

namespace detail {
template <class R, class... S>
struct SectionOf {
  using type = void;
};
template <class R, class S0, class... S>
struct SectionOf<R, S0, S...> {
  using type = std::conditional_t<std::is_same_v<typename S0::Result, R>, S0, typename SectionOf<R, S...>::type>;
};
template <class R, class List>
struct SectionIn;
template <class R, class... S>
struct SectionIn<R, SectionList<S...>> {
  using type = typename SectionOf<R, S...>::type;
};
}  // namespace detail

}  // namespace tct::cli
