#!/usr/bin/env bash
# install-deps.sh TARGET [--dry-run]: installs what TARGET needs and is missing, on Debian or
# Ubuntu: the apt packages (with sudo when not root), then the npm packages from the one lock
# file. Does nothing when everything is already there. Each target needs what the one before
# it needs, and more:
#   demo   the page: Emscripten (it brings its own clang), Eigen, CMake, Node and the bundler
#   test   every suite: the native toolchain, GoogleTest, clang for the sanitizers, Chromium,
#          NumPy and PyTorch for the exported scripts, the real model's corpus (fortunes-zh),
#          and the test tools from npm
#   hosts  the tests' needs, and the heavier tutorial hosts of make test-hosts (Astro 5,
#          Docusaurus 3 with React 19, the classic Jupyter Notebook)
#   bench  the hosts' needs, and the bench's peers (tfjs, onnxruntime-web)
# --dry-run prints the plan (every package of the target, and what is missing here) and
# installs nothing.
set -euo pipefail

target=${1:-test}
dry=${2:-}
case "$target" in demo | test | hosts | bench) ;; *)
  echo "install-deps: the target is demo, test, hosts or bench, not '$target'" >&2
  exit 2
  ;;
esac

apt_demo=(emscripten libeigen3-dev cmake make)
apt_test=(g++ googletest libgtest-dev nlohmann-json3-dev clang-format clang libclang-rt-14-dev
  chromium chromium-headless-shell fonts-wqy-zenhei
  # the exported NumPy and PyTorch scripts run on Debian's python3: PyTorch 1.13 pulls in 207
  # packages, 171 MB to download and 734 MB on disk (6 minutes on the development machine)
  python3-numpy python3-torch
  # the core for Python (make test's python suite): pybind11 for its module, pytest to test it
  pybind11-dev python3-pytest
  # the wheel (make wheel: setuptools, pip) installed into a venv, and the notebooks run by the
  # real Jupyter (nbconvert, the kernel, nbclient); see apt_lean below
  python3-setuptools python3-wheel python3-pip python3-venv
  jupyter-nbconvert python3-ipykernel python3-nbclient
  # the real model's corpus (Tang poems, Song poems, classical quotations): the tests and make train;
  # the King James Bible (public domain), whose Genesis is the own-text lab's English preset
  fortunes-zh bible-kjv bible-kjv-text
  # the spreadsheets a learner downloads, opened, edited and recalculated by the real LibreOffice
  # Calc, headless, through its own UNO bridge (tests/node/calc.py): 60 packages, 270 MB on disk here
  libreoffice-calc-nogui python3-uno)
# Installed without their recommended packages: nbconvert recommends pandoc (about 150 MB),
# which exporting to HTML does not use.
apt_lean=(jupyter-nbconvert python3-ipykernel python3-nbclient jupyter-notebook)
# make test-hosts: the classic Jupyter Notebook, live (tests/hosts/notebook.test.mjs)
apt_hosts=(jupyter-notebook)
# npm: the demo installs only the bundler (the workspace tools/demo); the tests install the
# root's devDependencies and the tutorial hosts they build (tools/hosts: VitePress, reveal.js)
# too; make test-hosts the heavier hosts (tools/hosts-more); the bench every workspace
# (tools/bench: its peers).
case "$target" in
  demo) packages=("${apt_demo[@]}") npm_args=(--workspace tools/demo) ;;
  test) packages=("${apt_demo[@]}" "${apt_test[@]}") npm_args=(--workspace tools/demo --workspace tools/hosts --include-workspace-root) ;;
  hosts) packages=("${apt_demo[@]}" "${apt_test[@]}" "${apt_hosts[@]}") npm_args=(--workspace tools/demo --workspace tools/hosts --workspace tools/hosts-more --include-workspace-root) ;;
  bench) packages=("${apt_demo[@]}" "${apt_test[@]}") npm_args=(--workspaces --include-workspace-root) ;;
esac
# Node: Debian's emscripten brings nodejs; npm is a separate package unless Node came from
# elsewhere (NodeSource's nodejs includes npm).
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done

# What is installed from npm, and for which target: a stamp beside node_modules. A later
# target's install covers the earlier ones; a newer lock file means installing again.
stamp=node_modules/.installed-for
rank() { case "$1" in demo) echo 1 ;; test) echo 2 ;; hosts) echo 3 ;; bench) echo 4 ;; *) echo 0 ;; esac; }
have=$(cat "$stamp" 2>/dev/null || true)
npm_needed=no
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ "$(rank "$have")" -lt "$(rank "$target")" ]; then
  npm_needed=yes
fi

if [ "$dry" = "--dry-run" ]; then
  echo "target: $target"
  echo "apt: ${packages[*]}"
  echo "apt missing here: ${missing[*]:-none}"
  echo "npm: npm ci ${npm_args[*]}"
  echo "npm needed here: $npm_needed"
  exit 0
fi

if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -q
  lean=() rest=()
  for p in "${missing[@]}"; do
    if [[ " ${apt_lean[*]} " == *" $p "* ]]; then lean+=("$p"); else rest+=("$p"); fi
  done
  if ((${#rest[@]})); then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${rest[@]}"
  fi
  if ((${#lean[@]})); then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${lean[@]}"
  fi
fi

if [ "$npm_needed" = yes ]; then
  npm ci --no-audit --no-fund "${npm_args[@]}"
  echo "$target" >"$stamp"
fi
