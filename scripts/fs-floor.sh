#!/usr/bin/env bash
# fs-floor.sh DIR REPEATS: the floor the file system under DIR sets for writing tests: a C loop
# creating 65,536 .ktest-sized files (82 bytes) in one directory, run REPEATS times. Prints one
# line per run, "WALL SYS" in seconds, for the benchmark scripts to summarise.
set -euo pipefail
dir=$1 repeats=$2
printf '%s\n' '#include <stdio.h>' \
    'int main(int argc, char **argv) {' \
    '    char path[4096], bytes[82] = "KTEST";' \
    '    for (int i = 1; i <= 65536; i++) {' \
    '        snprintf(path, sizeof path, "%s/test%06d.ktest", argv[1], i);' \
    '        FILE *f = fopen(path, "wb");' \
    '        if (!f) return 1;' \
    '        fwrite(bytes, 1, sizeof bytes, f);' \
    '        fclose(f);' \
    '    }' \
    '    return 0;' \
    '}' > "$dir/fs-floor.c"
cc -O2 -o "$dir/fs-floor" "$dir/fs-floor.c"
for _ in $(seq "$repeats"); do
    mkdir "$dir/fs-floor.d"
    /usr/bin/time -f "%e %S" "$dir/fs-floor" "$dir/fs-floor.d" 2>&1
    rm -rf "$dir/fs-floor.d"
done
