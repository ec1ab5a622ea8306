// fmt's implementation, compiled once for the whole binary. Every other file includes
// <fmt/format.h> without FMT_HEADER_ONLY, so it only declares what is defined here (see
// CMakeLists.txt: header-only fmt compiled this in each of ~80 files).
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
// What <fmt/format.h> declares `extern template` when not header-only.
template FMT_API auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;
}  // namespace detail
FMT_END_NAMESPACE
