# Sourced by the scale benchmarks: `scale_corpus N` makes the generated
# corpus of N skills (scripts/gen/corpus.py) under target/scale-corpus/N
# once, and prints its path; later calls reuse it.
scale_corpus() {
    local corpus=target/scale-corpus/$1
    if [ ! -f "$corpus.json" ]; then
        rm -rf "$corpus"
        mkdir -p "$(dirname "$corpus")"
        python3 scripts/gen/corpus.py "$1" "$corpus" >"$corpus.json.tmp"
        mv "$corpus.json.tmp" "$corpus.json"
    fi
    echo "$corpus"
}
