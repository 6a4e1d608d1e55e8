#!/bin/sh
# A compiler launcher (as ccache, sccache or distcc are used): records each
# command line in the log named by its first argument, then runs it.
log=$1
shift
printf '%s\n' "$*" >>"$log"
exec "$@"
