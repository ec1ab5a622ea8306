#include "core/target_options.hpp"

namespace tct::core {

using json = nlohmann::json;

json to_load_params(const TargetOptions& o) {
  return {{"target", o.target},
          {"params", o.params.is_object() ? o.params : json::object()},
          {"device", o.device ? json(*o.device) : json(nullptr)},
          {"dtype", o.dtype ? json(*o.dtype) : json(nullptr)},
          {"train", o.train}};
}

}  // namespace tct::core
