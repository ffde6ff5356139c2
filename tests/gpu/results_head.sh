# Sourced by the GPU scripts that write a docs/results file (ptx_check.sh,
# runtime_check.sh): results_head TITLE COMMAND prints the file's header.
results_head() {
  rev=${GSAN_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}
  printf '%s\n\n' "$1"
  printf 'Command: `%s` (written by the script, not by hand)  \n' "$2"
  printf 'gsan commit: %s  \n' "$rev"
  printf 'Date: %s  \n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
  printf 'Device: %s; %s\n\n' "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n 1)" \
    "$(nvcc --version 2>/dev/null | tail -n 2 | head -n 1)"
}
