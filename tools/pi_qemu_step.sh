#!/usr/bin/env bash
# The learning's training step (tune.network, tune.loss_of on 32 crops, backward; then the ONNX export) in an arm64
# Debian Bookworm root under qemu-user, as a Pi 4 (-cpu cortex-a72: ARMv8.0, no LSE atomics) and as a Pi 5
# (cortex-a76), with the default thread count: pass or fail for each. Not CI's: it needs Debian's and PyPI's servers,
# root, and an hour the first time (the root is built once: debootstrap, then `.[fast,learn]` installed in a venv
# there by pip, which takes torch's aarch64 wheel as pyproject.toml pins it).
#
#     sudo bash tools/pi_qemu_step.sh [ROOT]     # ROOT: where the arm64 root is made (default /var/tmp/nova-arm64)
set -euo pipefail
CLONE=$(cd "$(dirname "$0")/.." && pwd)
ROOT=${1:-/var/tmp/nova-arm64}

need=()
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
command -v debootstrap >/dev/null || need+=(debootstrap)
if ((${#need[@]})); then
    echo "pi_qemu_step: installing ${need[*]} from apt"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# aarch64 programs run through qemu (the F flag: its interpreter is opened now, so it works inside the root too)
[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || cat /usr/lib/binfmt.d/qemu-aarch64.conf >/proc/sys/fs/binfmt_misc/register

if [ ! -e "$ROOT/.debootstrapped" ]; then
    echo "pi_qemu_step: debootstrap of an arm64 Bookworm into $ROOT (the second stage runs under qemu: slow)"
    debootstrap --arch=arm64 --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$ROOT" \
        http://deb.debian.org/debian >"$ROOT.debootstrap.log" 2>&1 || { tail -20 "$ROOT.debootstrap.log"; exit 1; }
    touch "$ROOT/.debootstrapped"
fi
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"  # this machine's (a proxy's own CA)
inside() { chroot "$ROOT" env -i PATH=/usr/bin:/bin HOME=/root PIP_DISABLE_PIP_VERSION_CHECK=1 "$@"; }
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
mountpoint -q "$ROOT/sys" || mount -t sysfs sysfs "$ROOT/sys"  # PyTorch's cpuinfo counts the processors there
mountpoint -q "$ROOT/dev" || mount --bind /dev "$ROOT/dev"
trap 'umount "$ROOT/proc" "$ROOT/sys" "$ROOT/dev" 2>/dev/null || true' EXIT

rm -rf "$ROOT/src" && mkdir -p "$ROOT/src"
cp -a "$CLONE/pyproject.toml" "$CLONE/README.md" "$CLONE/assistant" "$ROOT/src/"
if [ ! -e "$ROOT/venv/.installed" ] || ! cmp -s "$CLONE/pyproject.toml" "$ROOT/venv/.installed"; then
    echo "pi_qemu_step: pip install .[fast,learn] into $ROOT/venv (under qemu: slow)"
    inside python3 -m venv --clear /venv
    inside /venv/bin/pip install --quiet "/src[fast,learn]"
    cp "$CLONE/pyproject.toml" "$ROOT/venv/.installed"
fi
echo "pi_qemu_step: installed: $(du -sh "$ROOT/venv" | cut -f1) in the venv;" \
    "$(inside /venv/bin/pip list 2>/dev/null | grep -iE '^(torch|onnx|onnxruntime|numpy) ' | tr -s ' ' | paste -sd, -)"

cat >"$ROOT/step.py" <<'EOF'
import numpy as np
import torch

from assistant.vision import tune
from assistant.vision.crop import SIDE
from assistant.vision.read import CLASSES, SYMBOLS

net = tune.network()
net.load_state_dict(tune.weights(tune.WEIGHTS))
rng = np.random.default_rng(0)
crops = rng.integers(0, 256, (tune.BATCH, SIDE, SIDE, 3), dtype=np.uint8)
labels = np.stack([rng.integers(0, len(CLASSES), tune.BATCH), rng.integers(0, len(SYMBOLS), tune.BATCH)], 1)
net.train()
loss = tune.loss_of(net, crops, labels)
loss.backward()
assert all(p.grad is not None for p in net.parameters())
print(f"step: loss {float(loss):.3f}, {torch.get_num_threads()} threads, torch {torch.__version__}")
print(f"export: {len(tune.export(net))} bytes of ONNX")
EOF

failed=0
ulimit -c 0  # no core file of a crash left in the root
for cpu in cortex-a72 cortex-a76; do
    set +e
    said=$(QEMU_CPU=$cpu timeout 3600 chroot "$ROOT" env -i QEMU_CPU=$cpu /venv/bin/python /step.py 2>&1)
    rc=$?
    set -e
    if [ $rc -eq 0 ]; then
        echo "$cpu: pass ($(echo "$said" | grep -E '^(step|export): ' | paste -sd ';' -))"
    else
        why=$(echo "$said" | tail -1)
        [ $rc -gt 128 ] && why="killed by SIG$(kill -l $((rc - 128))); $why"
        echo "$cpu: fail (exit status $rc: $why)"
        failed=1
    fi
done
exit $failed
