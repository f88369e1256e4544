// Bindings of the batched environments. Steps release the GIL while C++ runs.
#include "bindings/bindings.h"

#include "core/errors.h"
#include "core/planes.h"
#include "search/vector_env.h"

namespace hexengine::bindings {

namespace {

// A new observation array for `n` environments, as bools or float32.
py::array new_obs(const VectorEnv& env, size_t n, bool as_float) {
  const std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(n), kPlaneCount, env.rules().rows, env.rules().cols};
  if (as_float) return py::array_t<float>(shape);
  return py::array_t<bool>(shape);
}

// Where to write the observation `obs` (as made by new_obs) and the rest.
EnvOutputs outputs(py::array& obs, bool as_float, py::array_t<bool>& mask, py::array_t<int8_t>& to_play) {
  EnvOutputs out;
  if (as_float) {
    out.obs_float = static_cast<float*>(obs.mutable_data());
  } else {
    out.obs_bool = static_cast<bool*>(obs.mutable_data());
  }
  out.mask = mask.mutable_data();
  out.to_play = to_play.mutable_data();
  return out;
}

}  // namespace

void bind_envs(py::module_& m) {
  py::class_<VectorEnv>(m, "VectorEnv")
      .def(py::init([](const std::string& variant, int rows, int cols, const std::string& swap, int num_envs,
                       int threads, unsigned long long seed) {
             return std::make_unique<VectorEnv>(rules_from_py(variant, rows, cols, swap), num_envs, threads, seed);
           }),
           py::arg("variant"), py::arg("rows"), py::arg("cols"), py::arg("swap"), py::arg("num_envs"),
           py::arg("threads"), py::arg("seed"))
      .def_property_readonly("num_envs", &VectorEnv::num_envs)
      .def_property_readonly("num_actions", &VectorEnv::num_actions)
      .def_property_readonly("threads", &VectorEnv::threads)
      .def_property_readonly("bytes_per_env", &VectorEnv::bytes_per_env)
      .def(
          "reset",
          [](VectorEnv& env, unsigned long long seed, bool as_float) {
            py::array obs = new_obs(env, env.num_envs(), as_float);
            py::array_t<bool> mask({env.num_envs(), env.num_actions()});
            py::array_t<int8_t> to_play(env.num_envs());
            const EnvOutputs out = outputs(obs, as_float, mask, to_play);
            {
              py::gil_scoped_release release;
              env.reset(seed);
              env.observe(out);
            }
            return py::make_tuple(obs, mask, to_play);
          },
          py::arg("seed"), py::arg("as_float"),
          "Empties every board; returns (observations, action masks, players to move).")
      .def(
          "step",
          [](VectorEnv& env, const py::array_t<int64_t, py::array::c_style>& actions,
             bool as_float) {
            if (actions.ndim() != 1 || actions.shape(0) != env.num_envs()) {
              throw ConfigError("step takes one action per environment: an array of shape (" +
                                std::to_string(env.num_envs()) + ",), not of " + std::to_string(actions.size()) +
                                " values in " + std::to_string(actions.ndim()) + " dimensions");
            }
            py::array obs = new_obs(env, env.num_envs(), as_float);
            py::array_t<bool> mask({env.num_envs(), env.num_actions()});
            py::array_t<int8_t> to_play(env.num_envs());
            py::array_t<float> rewards(env.num_envs());
            py::array_t<bool> terminated(env.num_envs());
            const EnvOutputs out = outputs(obs, as_float, mask, to_play);
            StepOutcome outcome;
            {
              py::gil_scoped_release release;
              outcome = env.step(actions.data(), rewards.mutable_data(), terminated.mutable_data(), out);
            }
            py::array finals = new_obs(env, outcome.ended.size(), as_float);
            if (as_float) {
              env.write_final_observations(static_cast<float*>(finals.mutable_data()));
            } else {
              env.write_final_observations(static_cast<bool*>(finals.mutable_data()));
            }
            return py::make_tuple(obs, rewards, terminated, mask, to_play, outcome.ended, finals);
          },
          py::arg("actions"), py::arg("as_float"),
          "Plays one action per environment; returns (observations, rewards, terminated, action masks, "
          "players to move, indices of the games that ended, their final observations).")
      .def(
          "sample_actions",
          [](VectorEnv& env) {
            py::array_t<int64_t> out(env.num_envs());
            int64_t* data = out.mutable_data();
            {
              py::gil_scoped_release release;
              env.sample_actions(data);
            }
            return out;
          },
          "A uniformly random legal action per environment.");
}

}  // namespace hexengine::bindings
