# bash completion for healthlog. Generated from the command declarations by
# `tools/docs --reference`: do not edit. Load it with `source healthlog.bash`, or install
# it as /usr/share/bash-completion/completions/healthlog.

_healthlog() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local i=1 command=""
    while [[ $i -lt $COMP_CWORD ]]; do
        case ${COMP_WORDS[i]} in
            --store|--passphrase-file|--key-file) ((i++)) ;;
            -*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
        ((i++))
    done
    case $prev in
        --store) _healthlog_values directory; return ;;
        --passphrase-file|--key-file) _healthlog_values file; return ;;
    esac
    case $command in
        "")
            COMPREPLY=($(compgen -W "--store --passphrase-file --key-file --help -h --version help init append add delete replay export aggregate plot workouts sleep route report backup restore recover anchor log stats verify reindex compact import key unlock lock" -- "$cur")) ;;
        help)
            COMPREPLY=($(compgen -W "init append add delete replay export aggregate plot workouts sleep route report backup restore recover anchor log stats verify reindex compact import key unlock lock" -- "$cur")) ;;
        init)
            case $prev in
                --cipher) _healthlog_values xchacha20-poly1305 aes-256-gcm; return ;;
            esac
            COMPREPLY=($(compgen -W "--encrypt --cipher --help -h" -- "$cur")) ;;
        append)
            case $prev in
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--no-sync --help -h" -- "$cur"))
            else
                _healthlog_values file
            fi ;;
        add)
            case $prev in
                --type) _healthlog_values none; return ;;
                --value) _healthlog_values none; return ;;
                --unit) _healthlog_values none; return ;;
                --activity) _healthlog_values none; return ;;
                --duration) _healthlog_values none; return ;;
                --start) _healthlog_values none; return ;;
                --end) _healthlog_values none; return ;;
                --source) _healthlog_values none; return ;;
                --device) _healthlog_values none; return ;;
                --uuid) _healthlog_values none; return ;;
                --metadata) _healthlog_values none; return ;;
            esac
            COMPREPLY=($(compgen -W "--type --value --unit --activity --duration --start --end --source --device --uuid --metadata --no-sync --help -h" -- "$cur")) ;;
        delete)
            case $prev in
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--no-sync --help -h" -- "$cur"))
            else
                _healthlog_values none
            fi ;;
        replay)
            case $prev in
                --from) _healthlog_values none; return ;;
                --type) _healthlog_values none; return ;;
                --start) _healthlog_values none; return ;;
                --end) _healthlog_values none; return ;;
                --source) _healthlog_values none; return ;;
                --device) _healthlog_values none; return ;;
                --uuid) _healthlog_values none; return ;;
                --metadata) _healthlog_values none; return ;;
                --where) _healthlog_values none; return ;;
                --category) _healthlog_values none; return ;;
                --limit) _healthlog_values none; return ;;
                --anchor-file) _healthlog_values file; return ;;
                --format) _healthlog_values ndjson csv ndjson-rows; return ;;
            esac
            COMPREPLY=($(compgen -W "--from --type --start --end --strict-start --strict-end --source --device --uuid --metadata --where --category --limit --raw --follow --anchor-file --format --help -h" -- "$cur")) ;;
        export)
            case $prev in
                --type) _healthlog_values none; return ;;
                --start) _healthlog_values none; return ;;
                --end) _healthlog_values none; return ;;
                --source) _healthlog_values none; return ;;
                --device) _healthlog_values none; return ;;
                --uuid) _healthlog_values none; return ;;
                --metadata) _healthlog_values none; return ;;
                --where) _healthlog_values none; return ;;
                --category) _healthlog_values none; return ;;
                --unit) _healthlog_values none; return ;;
                --format) _healthlog_values ndjson csv ndjson-rows; return ;;
                --partition) _healthlog_values directory; return ;;
                --person) _healthlog_values none; return ;;
            esac
            COMPREPLY=($(compgen -W "--type --start --end --strict-start --strict-end --source --device --uuid --metadata --where --category --unit --format --partition --person --help -h" -- "$cur")) ;;
        aggregate)
            case $prev in
                --type) _healthlog_values none; return ;;
                --interval) _healthlog_values hour day week month; return ;;
                --stat) _healthlog_values none; return ;;
                --unit) _healthlog_values none; return ;;
                --source-priority) _healthlog_values none; return ;;
                --utc-offset) _healthlog_values none; return ;;
                --time-zone) _healthlog_values none; return ;;
                --start) _healthlog_values none; return ;;
                --end) _healthlog_values none; return ;;
                --source) _healthlog_values none; return ;;
                --device) _healthlog_values none; return ;;
                --uuid) _healthlog_values none; return ;;
                --metadata) _healthlog_values none; return ;;
                --where) _healthlog_values none; return ;;
                --category) _healthlog_values none; return ;;
                --format) _healthlog_values csv ndjson; return ;;
            esac
            COMPREPLY=($(compgen -W "--type --interval --stat --unit --source-priority --separate-by-source --utc-offset --time-zone --local --start --end --strict-start --strict-end --source --device --uuid --metadata --where --category --format --help -h" -- "$cur")) ;;
        plot)
            case $prev in
                --type) _healthlog_values none; return ;;
                -o|--output) _healthlog_values file; return ;;
                --interval) _healthlog_values hour day week month; return ;;
                --stat) _healthlog_values count sum avg min max duration most-recent; return ;;
                --unit) _healthlog_values none; return ;;
                --source-priority) _healthlog_values none; return ;;
                --utc-offset) _healthlog_values none; return ;;
                --time-zone) _healthlog_values none; return ;;
                --start) _healthlog_values none; return ;;
                --end) _healthlog_values none; return ;;
                --source) _healthlog_values none; return ;;
                --device) _healthlog_values none; return ;;
                --uuid) _healthlog_values none; return ;;
                --metadata) _healthlog_values none; return ;;
                --where) _healthlog_values none; return ;;
                --category) _healthlog_values none; return ;;
            esac
            COMPREPLY=($(compgen -W "--type -o --output --interval --stat --unit --source-priority --utc-offset --time-zone --local --start --end --strict-start --strict-end --source --device --uuid --metadata --where --category --help -h" -- "$cur")) ;;
        workouts)
            case $prev in
                --distance-unit) _healthlog_values km mi; return ;;
                --energy-unit) _healthlog_values kcal kJ; return ;;
                --utc-offset) _healthlog_values none; return ;;
                --time-zone) _healthlog_values none; return ;;
                --start) _healthlog_values none; return ;;
                --end) _healthlog_values none; return ;;
                --source) _healthlog_values none; return ;;
                --device) _healthlog_values none; return ;;
                --uuid) _healthlog_values none; return ;;
                --metadata) _healthlog_values none; return ;;
                --where) _healthlog_values none; return ;;
                --category) _healthlog_values none; return ;;
                --format) _healthlog_values table csv ndjson; return ;;
            esac
            COMPREPLY=($(compgen -W "--distance-unit --energy-unit --utc-offset --time-zone --local --start --end --strict-start --strict-end --source --device --uuid --metadata --where --category --format --help -h" -- "$cur")) ;;
        sleep)
            case $prev in
                --source-priority) _healthlog_values none; return ;;
                --utc-offset) _healthlog_values none; return ;;
                --time-zone) _healthlog_values none; return ;;
                --start) _healthlog_values none; return ;;
                --end) _healthlog_values none; return ;;
                --source) _healthlog_values none; return ;;
                --device) _healthlog_values none; return ;;
                --uuid) _healthlog_values none; return ;;
                --metadata) _healthlog_values none; return ;;
                --where) _healthlog_values none; return ;;
                --category) _healthlog_values none; return ;;
                --format) _healthlog_values table csv ndjson; return ;;
            esac
            COMPREPLY=($(compgen -W "--source-priority --utc-offset --time-zone --local --start --end --strict-start --strict-end --source --device --uuid --metadata --where --category --format --help -h" -- "$cur")) ;;
        route)
            case $prev in
                --start) _healthlog_values none; return ;;
                --end) _healthlog_values none; return ;;
                --format) _healthlog_values gpx geojson csv; return ;;
                -o|--output) _healthlog_values file; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--start --end --format -o --output --help -h" -- "$cur"))
            else
                _healthlog_values none
            fi ;;
        report)
            case $prev in
                -o|--output) _healthlog_values file; return ;;
                --start) _healthlog_values none; return ;;
                --end) _healthlog_values none; return ;;
                --utc-offset) _healthlog_values none; return ;;
                --time-zone) _healthlog_values none; return ;;
            esac
            COMPREPLY=($(compgen -W "-o --output --start --end --utc-offset --time-zone --local --help -h" -- "$cur")) ;;
        backup)
            case $prev in
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--follow --help -h" -- "$cur"))
            else
                _healthlog_values directory
            fi ;;
        restore)
            case $prev in
                --to) _healthlog_values none; return ;;
                --cipher) _healthlog_values xchacha20-poly1305 aes-256-gcm; return ;;
                --utc-offset) _healthlog_values none; return ;;
                --time-zone) _healthlog_values none; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--force --to --dry-run --decrypt --encrypt --cipher --utc-offset --time-zone --help -h" -- "$cur"))
            else
                _healthlog_values directory
            fi ;;
        recover)
            case $prev in
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--help -h" -- "$cur"))
            else
                _healthlog_values directory
            fi ;;
        anchor)
            case $prev in
            esac
            COMPREPLY=($(compgen -W "--help -h" -- "$cur")) ;;
        log)
            case $prev in
                --limit) _healthlog_values none; return ;;
                --format) _healthlog_values table ndjson; return ;;
            esac
            COMPREPLY=($(compgen -W "--limit --format --help -h" -- "$cur")) ;;
        stats)
            case $prev in
            esac
            COMPREPLY=($(compgen -W "--help -h" -- "$cur")) ;;
        verify)
            case $prev in
            esac
            COMPREPLY=($(compgen -W "--help -h" -- "$cur")) ;;
        reindex)
            case $prev in
            esac
            COMPREPLY=($(compgen -W "--help -h" -- "$cur")) ;;
        compact)
            case $prev in
                --horizon) _healthlog_values none; return ;;
            esac
            COMPREPLY=($(compgen -W "--horizon --rekey --help -h" -- "$cur")) ;;
        import)
            case $prev in
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--mirror --no-sync --help -h" -- "$cur"))
            else
                _healthlog_values file
            fi ;;
        key)
            case $prev in
                --new-passphrase-file) _healthlog_values file; return ;;
                --new-key-file) _healthlog_values file; return ;;
                --cipher) _healthlog_values xchacha20-poly1305 aes-256-gcm; return ;;
            esac
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--new-passphrase-file --new-key-file --cipher --help -h" -- "$cur"))
            else
                _healthlog_values list add remove rotate
            fi ;;
        unlock)
            case $prev in
                --for) _healthlog_values none; return ;;
            esac
            COMPREPLY=($(compgen -W "--for --help -h" -- "$cur")) ;;
        lock)
            case $prev in
            esac
            COMPREPLY=($(compgen -W "--help -h" -- "$cur")) ;;
    esac
}

# Completes a value: `file`, `directory`, `none`, or the words given.
_healthlog_values() {
    case $1 in
        file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
        directory) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
        none) COMPREPLY=() ;;
        *) COMPREPLY=($(compgen -W "$*" -- "$cur")) ;;
    esac
}

complete -F _healthlog healthlog
