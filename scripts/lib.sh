# Helpers the shell scripts share; each script sets LOG_TAG and sources this file:
#   LOG_TAG=bootstrap
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Why one file: four scripts had their own copies of say/die, and a fix to one (stderr, the
# ERROR prefix) had to be made four times.

# A progress line on stderr, tagged with the script's name ("[bootstrap] ...").
say() { printf '[%s] %s\n' "${LOG_TAG:-smh}" "$*" >&2; }

# An error line on stderr, then exit 1: every script fails loudly and with its own name.
die() { printf '[%s] ERROR: %s\n' "${LOG_TAG:-smh}" "$*" >&2; exit 1; }
