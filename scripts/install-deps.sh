#!/usr/bin/env bash
# Installs the Debian packages parq needs to build, test, benchmark and fuzz.
# Idempotent and quick when everything is present: apt runs only when a
# package is missing.
set -euo pipefail

packages=(
  g++ cmake ninja-build ccache pkg-config
  libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev
  clang libclang-rt-14-dev
  libxxhash-dev libsnappy-dev libdeflate-dev libbrotli-dev libzstd-dev liblz4-dev liblzo2-dev
  python3-dev python3-venv openjdk-17-jre-headless maven
  libcurl4-openssl-dev libssl-dev nginx-light
)
# Intel's AES-GCM for VAES and VPCLMULQDQ (src/crypto/aes.h), x86-64 only.
[ "$(dpkg --print-architecture)" = amd64 ] && packages+=(libipsec-mb-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
