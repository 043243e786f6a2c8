# Sourced by .ci/run and hack/ci/readme-commands.sh: reads the README's commands, so CI runs them as written.

# The lines of the first ```shell block after the README line that starts with $1.
readme_block() {
  awk -v start="$1" 'index($0, start) == 1 { found = 1 } found && /^```shell/ { inside = 1; next }
    inside && /^```/ { exit } inside { print }' README.md
}
