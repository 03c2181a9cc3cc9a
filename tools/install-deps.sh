#!/usr/bin/env bash
# install-deps.sh: installs what the build and the tests need and is missing, on Debian or
# Ubuntu: the apt packages (with sudo when not root), then the npm devDependencies from the
# lock file. Does nothing when everything is already there.
set -euo pipefail

packages=(emscripten libeigen3-dev cmake make g++ googletest libgtest-dev nlohmann-json3-dev
  clang-format clang libclang-rt-14-dev chromium fonts-wqy-zenhei
  # the exported NumPy and PyTorch scripts run on Debian's python3: PyTorch 1.13 pulls in 207
  # packages, 171 MB to download and 734 MB on disk (6 minutes on the development machine)
  python3-numpy python3-torch)
# Node: Debian's emscripten brings nodejs; npm is a separate package unless Node came from
# elsewhere (NodeSource's nodejs includes npm).
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

# npm devDependencies, exactly as locked; again only when the lock file changed.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
