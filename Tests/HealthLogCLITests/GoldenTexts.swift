import HealthLogTestSupport
/// The expected `--help` pages of `healthlog`, captured from the build and reviewed:
/// the golden texts of ``GoldenTests``. A change to any help text must change these on
/// purpose.
enum GoldenTexts {
    /// The top-level help (`healthlog --help`).
    static let overview = """
        OVERVIEW: An append-only, LZ4-compressed event log of health samples with
        HealthKit-style anchored queries.

        USAGE: healthlog [--store <dir>] <command> [<options>]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --passphrase-file <file>  An encrypted store's passphrase: the file's content,
                                    less one trailing newline.
          --key-file <file>         An encrypted store's key file (at least 32 random
                                    bytes) instead of a passphrase.
          -h, --help                Show help information.
          --version                 Show the tool's version and the store format
                                    versions it writes.

        COMMANDS:
          init                      Create an empty store, encrypted with --encrypt.
          append                    Append NDJSON events from files or standard input,
                                    all-or-nothing.
          add                       Append one sample.
          delete                    Delete live samples by UUID, all-or-nothing.
          replay                    Replay the samples and deleted objects after an
                                    anchor (an anchored query).
          export                    Write the live samples as they stand now (a
                                    snapshot, not a log).
          aggregate                 Per-interval statistics of one type's live samples
                                    (a statistics collection query).
          plot                      Draw per-interval statistics of one type as an SVG
                                    chart.
          workouts                  One row per workout: start, activity, duration,
                                    distance, energy, heart rate, elevation gain and
                                    route points.
          sleep                     One row per night: time in bed, asleep, each sleep
                                    stage, awake, efficiency, and the first and last
                                    time.
          route                     Write a workout's route (or every route of a date
                                    range) as GPX, GeoJSON or CSV.
          report                    Write a person's record as one self-contained HTML
                                    page, to read offline or print for a doctor.
          backup                    Copy the store into a directory, consistently,
                                    incrementally and verified.
          restore                   Restore a backup into the store directory, verified
                                    and atomically, as a new timeline.
          recover                   Copy every readable event of a damaged store into a
                                    new store and list what could not be read.
          anchor                    Print the anchor of the last committed event.
          log                       List the store's appends and restores, newest first:
                                    what made each, when, and the anchor to restore to.
          stats                     Show per-type counts and dates, and the store's
                                    size.
          verify                    Check every checksum, the sequence continuity and
                                    the indexes.
          reindex                   Rebuild the indexes from the segments.
          compact                   Drop samples deleted before a horizon, with their
                                    deletes; older anchors below it expire. Or rewrite
                                    an encrypted store under its newest key.
          import                    Import an Apple Health export (export.zip or
                                    export.xml), idempotently.
          key                       Manage an encrypted store's key slots, or rotate its
                                    data key.
          unlock                    Keep an encrypted store's keys in the kernel keyring
                                    for a while.
          lock                      Drop the keys 'healthlog unlock' keeps for an
                                    encrypted store.

          See 'healthlog help <command>' for detailed help.

        ENVIRONMENT:
          HEALTHLOG_STORE           The store directory when --store is not given.
          HEALTHLOG_LOCK_TIMEOUT    Seconds a writer waits for another writer's lock
                                    (default 10).
          HEALTHLOG_SEGMENT_BYTES   Segment size limit in bytes (default 64 MiB).
          HEALTHLOG_BATCH_BYTES     NDJSON bytes per batch (default 1 MiB).
          HEALTHLOG_PASSPHRASE_FILE
                                    An encrypted store's passphrase file when no
                                    --passphrase-file or --key-file is given.
          HEALTHLOG_KEY_FILE        An encrypted store's key file; set it or
                                    HEALTHLOG_PASSPHRASE_FILE, not both.
          HEALTHLOG_PASSPHRASE      An encrypted store's passphrase itself, after the
                                    files (other processes of this user may read it;
                                    prefer a file). Else the keys 'healthlog unlock'
                                    left, else a prompt on a terminal.
          HEALTHLOG_NEW_PASSPHRASE_FILE
                                    The new slot's passphrase file for 'key add' when
                                    --new-passphrase-file is not given.

        EXIT CODES:
          0                         Success.
          1                         Store or I/O failure (damage, permissions, disk
                                    full, lock timeout, no store).
          2                         Bad usage or bad input; nothing was written.
          3                         Anchor refused: malformed, from another store, or
                                    past the head.
          4                         Encrypted store: no secret given, or it opens no key
                                    slot; nothing was written.
        """

    /// `healthlog append --help`.
    static let append = """
        OVERVIEW: Append NDJSON events from files or standard input, all-or-nothing.

        USAGE: healthlog [--store <dir>] append [--no-sync] [<file> ...]

        ARGUMENTS:
          <file>                    NDJSON event files, read in order as one append; '-'
                                    or none reads standard input.

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --no-sync                 Do not wait for fdatasync before reporting success:
                                    faster, but a power loss or OS crash may lose the
                                    append.
          -h, --help                Show help information.

        Prints the new anchor on stdout and a summary (added, deleted, replaced,
        skipped) on stderr. Any invalid line writes nothing and exits 2.
        """

    /// `healthlog add --help`.
    static let add = """
        OVERVIEW: Append one sample.

        USAGE: healthlog [--store <dir>] add --type <type> [--value <value>] [--unit <unit>] [--activity <name>] [--duration <seconds>] [--start <date>] [--end <date>] [--source <name>] [--device <name>] [--uuid <uuid>] [--metadata <key=value> ...] [--no-sync]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --type <type>             The sample type, in full or short (HeartRate,
                                    SleepAnalysis, Workout), in any case.
          --value <value>           A number (not negative for a cumulative type); for a
                                    category type, an integer or the constant's name, in
                                    full or short (AsleepCore).
          --unit <unit>             The unit of a quantity, a HealthKit unit of the
                                    type's dimension (count/min, kg, lb, mg/dL, …).
          --activity <name>         A workout's activity type
                                    (HKWorkoutActivityTypeRunning).
          --duration <seconds>      A workout's duration in seconds.
          --start <date>            ISO 8601 instant or YYYY-MM-DD (default: now).
          --end <date>              ISO 8601 instant or YYYY-MM-DD (default: the start).
          --source <name>           The source (app or device) name.
          --device <name>           The device description.
          --uuid <uuid>             The sample's UUID (default: a random one).
          --metadata <key=value>    A metadata entry; the value is a number or boolean
                                    when it reads as one, else a string. Repeatable.
          --no-sync                 Do not wait for fdatasync before reporting success.
          -h, --help                Show help information.

        A quantity takes --value and --unit, a category --value, a workout --activity
        (and --duration). Types, units and category values are checked against
        HealthKit's: a near miss of a known type is refused with 'did you mean', a type
        healthlog does not know but with a HealthKit prefix is accepted with a note.
        Numbers are stored in their shortest form (72.50 as 72.5). Prints the sample's
        UUID, then the new anchor, on stdout.
        """

    /// `healthlog delete --help`.
    static let delete = """
        OVERVIEW: Delete live samples by UUID, all-or-nothing.

        USAGE: healthlog [--store <dir>] delete [--no-sync] <uuid> ...

        ARGUMENTS:
          <uuid>                    The UUIDs of live samples.

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --no-sync                 Do not wait for fdatasync before reporting success.
          -h, --help                Show help information.

        Prints the new anchor on stdout. A UUID that is not live, or no UUID at all,
        writes nothing and exits 2.
        """

    /// `healthlog replay --help`.
    static let replay = """
        OVERVIEW: Replay the samples and deleted objects after an anchor (an anchored query).

        USAGE: healthlog [--store <dir>] replay [--from <anchor>] [--type <type> ...] [predicate options] [--limit <n>] [--raw] [--follow] [--anchor-file <file>] [--format ndjson|csv|ndjson-rows]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --from <anchor>           Replay after this anchor: a token printed by
                                    healthlog, 0 (the beginning, the default) or a
                                    sequence number.
          --type <type>             Only this type, in full
                                    (HKQuantityTypeIdentifierHeartRate) or short
                                    (HeartRate). Repeatable.
          --start <date>            Only samples in the range that starts here (an ISO
                                    8601 instant, or a date meaning its midnight UTC, or
                                    on the clock --utc-offset, --time-zone or --local
                                    names where a command takes them); by default a
                                    sample matches when it overlaps [start, end).
          --end <date>              Only samples in the range that ends here
                                    (exclusive).
          --strict-start            The sample's start must lie in [start, end).
          --strict-end              The sample's end must lie in [start, end).
          --source <name>           Only samples from this source. Repeatable.
          --device <name>           Only samples from this device. Repeatable.
          --uuid <uuid>             Only the sample with this UUID. Repeatable.
          --metadata <key[=value]>  Only samples whose metadata has this key (with this
                                    value, compared as text). All given must hold.
                                    Repeatable.
          --where <expr>            Only quantity samples whose value satisfies 'value
                                    OP NUMBER [UNIT]', OP one of < <= > >= == !=: in
                                    UNIT (converted; samples in units that do not
                                    convert do not match), else in the sample's own
                                    unit. All given must hold. Repeatable.
          --category <value>        Only category samples with this value: an integer,
                                    or a constant's name in full or after the type's
                                    prefix (AsleepCore), in any case; every spelling of
                                    a value matches the others. Repeatable.
          --limit <n>               At most n samples plus deleted objects (0: no
                                    limit).
          --raw                     Every event as recorded, instead of HealthKit's view
                                    (where a sample deleted later comes back only as its
                                    deleted object).
          --follow                  After the events so far, keep delivering each new
                                    matching event as any process appends it, until
                                    SIGINT or SIGTERM; then print next-anchor and exit
                                    0. Takes no --limit.
          --anchor-file <file>      Read the anchor from this file when --from is absent
                                    and the file exists; write the new anchor to it
                                    atomically once the output is flushed (with
                                    --follow, after each batch). It records what was
                                    written to stdout, not what a reader at the other
                                    end of a pipe has consumed.
          --format <format>         ndjson (the default: the stored lines, valid append
                                    input), csv (a header row, then one row per event in
                                    typed columns: UTC start and end with their offsets,
                                    a numeric value, category values in a column of
                                    their own) or ndjson-rows (the CSV's columns as one
                                    JSON object per line).
          -h, --help                Show help information.

        Events go to stdout as NDJSON with their seq, in sequence order; then
        'next-anchor: TOKEN' goes to stderr. Predicate options combine with AND; a
        repeated --type, --source, --device, --uuid or --category means any of them.
        Predicates apply to deleted objects through the fields they carry (type, dates,
        source, device, UUID, sync metadata). An anchor that is malformed, from another
        store or past the head exits 3.
        """

    /// `healthlog export --help`.
    static let export = """
        OVERVIEW: Write the live samples as they stand now (a snapshot, not a log).

        USAGE: healthlog [--store <dir>] export [--type <type> ...] [predicate options] [--unit <unit>] [--format ndjson|csv|ndjson-rows] [--partition <dir> [--person <id>]]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --type <type>             Only this type, in full or short (HeartRate).
                                    Repeatable.
          --start <date>            Only samples in the range that starts here (an ISO
                                    8601 instant, or a date meaning its midnight UTC, or
                                    on the clock --utc-offset, --time-zone or --local
                                    names where a command takes them); by default a
                                    sample matches when it overlaps [start, end).
          --end <date>              Only samples in the range that ends here
                                    (exclusive).
          --strict-start            The sample's start must lie in [start, end).
          --strict-end              The sample's end must lie in [start, end).
          --source <name>           Only samples from this source. Repeatable.
          --device <name>           Only samples from this device. Repeatable.
          --uuid <uuid>             Only the sample with this UUID. Repeatable.
          --metadata <key[=value]>  Only samples whose metadata has this key (with this
                                    value, compared as text). All given must hold.
                                    Repeatable.
          --where <expr>            Only quantity samples whose value satisfies 'value
                                    OP NUMBER [UNIT]', OP one of < <= > >= == !=: in
                                    UNIT (converted; samples in units that do not
                                    convert do not match), else in the sample's own
                                    unit. All given must hold. Repeatable.
          --category <value>        Only category samples with this value: an integer,
                                    or a constant's name in full or after the type's
                                    prefix (AsleepCore), in any case; every spelling of
                                    a value matches the others. Repeatable.
          --unit <unit>             Write every quantity sample in this unit (lb, kcal,
                                    …), converted; a sample whose unit does not convert
                                    is an error (exit 2). With --partition, for one
                                    --type (partitions are otherwise in each type's own
                                    unit).
          --format <format>         ndjson (the default: the stored lines, valid append
                                    input), csv (a header row, then one row per event in
                                    typed columns: UTC start and end with their offsets,
                                    a numeric value, category values in a column of
                                    their own) or ndjson-rows (the CSV's columns as one
                                    JSON object per line).
          --partition <dir>         Write Hive-style partitions instead of stdout:
                                    DIR/type=HeartRate/year=2024/PERSON.csv (or .ndjson
                                    with --format ndjson-rows), with a person column,
                                    values in one unit per type (the recorded value and
                                    unit in recordedValue and recordedUnit); prints the
                                    files written.
          --person <id>             The person column and file name of --partition
                                    (default: the store's identity, a UUID).
          -h, --help                Show help information.

        Every sample still live, in the order it was added, with its seq; deleted
        samples and delete events are left out. NDJSON output is valid append input (a
        copy of the live data without its history); CSV and ndjson-rows hold typed
        columns for DuckDB, pandas or a spreadsheet. Many people's --partition exports
        into one directory read as one table: a person's files are replaced whole, other
        people's are never touched.
        """

    /// `healthlog aggregate --help`.
    static let aggregate = """
        OVERVIEW: Per-interval statistics of one type's live samples (a statistics collection query).

        USAGE: healthlog [--store <dir>] aggregate --type <type> --interval hour|day|week|month [--stat <list>] [--unit <unit>] [--source-priority <list>] [--separate-by-source] [--utc-offset <offset> | --time-zone <name> | --local] [predicate options] [--format csv|ndjson]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --type <type>             The type, in full or short (HeartRate), in any case.
          --interval <interval>     hour, day, week (Monday to Monday) or month.
          --stat <list>             Comma-separated figures, in the order wanted: count,
                                    sum (cumulative types), avg, min, max, most-recent
                                    (discrete types), duration (seconds covered).
                                    Default: count,sum for cumulative types,
                                    count,avg,min,max for discrete ones, count,duration
                                    for other kinds.
          --unit <unit>             The unit of the figures (lb, kcal,
                                    mmol<180.15588000005408>/L, …); default: the type's.
                                    Samples in other units are converted.
          --source-priority <list>  Comma-separated sources that win when sources
                                    overlap, highest first; the rest follow Apple Watch,
                                    then iPhone and iPad, then other sources, by name.
          --separate-by-source      One row per interval and source, the sources not
                                    merged (a source column is added).
          --utc-offset <offset>     Intervals follow one fixed offset, +HH:MM or -HH:MM
                                    (default: UTC).
          --time-zone <name>        Intervals follow the local calendar of an IANA time
                                    zone (Europe/Berlin), daylight saving included: a
                                    day is 23 or 25 hours across a change.
          --local                   Each sample counts in its own local day: the zone
                                    its HKTimeZone metadata names, else the offset its
                                    start was recorded with.
          --start <date>            Only samples in the range that starts here (an ISO
                                    8601 instant, or a date meaning its midnight UTC, or
                                    on the clock --utc-offset, --time-zone or --local
                                    names where a command takes them); by default a
                                    sample matches when it overlaps [start, end).
          --end <date>              Only samples in the range that ends here
                                    (exclusive).
          --strict-start            The sample's start must lie in [start, end).
          --strict-end              The sample's end must lie in [start, end).
          --source <name>           Only samples from this source. Repeatable.
          --device <name>           Only samples from this device. Repeatable.
          --uuid <uuid>             Only the sample with this UUID. Repeatable.
          --metadata <key[=value]>  Only samples whose metadata has this key (with this
                                    value, compared as text). All given must hold.
                                    Repeatable.
          --where <expr>            Only quantity samples whose value satisfies 'value
                                    OP NUMBER [UNIT]', OP one of < <= > >= == !=: in
                                    UNIT (converted; samples in units that do not
                                    convert do not match), else in the sample's own
                                    unit. All given must hold. Repeatable.
          --category <value>        Only category samples with this value: an integer,
                                    or a constant's name in full or after the type's
                                    prefix (AsleepCore), in any case; every spelling of
                                    a value matches the others. Repeatable.
          --format <format>         csv (the default: a header row, then one row per
                                    interval) or ndjson.
          -h, --help                Show help information.

        As in HealthKit, sources are merged: a cumulative type's sum counts each stretch
        of time once, from the highest-priority source that covers it, prorating samples
        by time, also across intervals; a discrete type's figures take every source's
        samples. A sample counts (count, avg, min, max, most-recent) in the interval
        that holds its start. Deleted samples do not count.
        """

    /// `healthlog plot --help`.
    static let plot = """
        OVERVIEW: Draw per-interval statistics of one type as an SVG chart.

        USAGE: healthlog [--store <dir>] plot --type <type> -o <file.svg> [--interval hour|day|week|month] [--stat <figure>] [--unit <unit>] [--source-priority <list>] [--utc-offset <offset> | --time-zone <name> | --local] [predicate options]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --type <type>             The type, in full or short (HeartRate).
          -o, --output <file>       The SVG file to write (its name must end in .svg;
                                    mode 0600, replaced atomically).
          --interval <interval>     hour, day (the default), week or month.
          --stat <figure>           The figure drawn: count, sum or duration as bars;
                                    avg (with the min-max range shaded), min, max or
                                    most-recent as lines. Default: sum for cumulative
                                    quantity types, avg for discrete ones, hours per
                                    night by stage for SleepAnalysis, count for others.
                                    duration is drawn in hours, minutes or seconds,
                                    whichever fits (aggregate prints seconds).
          --unit <unit>             The unit of the figures (lb, kcal,
                                    mmol<180.15588000005408>/L, …); default: the type's.
                                    Samples in other units are converted.
          --source-priority <list>  Comma-separated sources that win when sources
                                    overlap, highest first; the rest follow Apple Watch,
                                    then iPhone and iPad, then other sources, by name.
          --utc-offset <offset>     Intervals follow one fixed offset, +HH:MM or -HH:MM
                                    (default: UTC).
          --time-zone <name>        Intervals follow the local calendar of an IANA time
                                    zone (Europe/Berlin), daylight saving included: a
                                    day is 23 or 25 hours across a change.
          --local                   Each sample counts in its own local day: the zone
                                    its HKTimeZone metadata names, else the offset its
                                    start was recorded with.
          --start <date>            Only samples in the range that starts here (an ISO
                                    8601 instant, or a date meaning its midnight UTC, or
                                    on the clock --utc-offset, --time-zone or --local
                                    names where a command takes them); by default a
                                    sample matches when it overlaps [start, end).
          --end <date>              Only samples in the range that ends here
                                    (exclusive).
          --strict-start            The sample's start must lie in [start, end).
          --strict-end              The sample's end must lie in [start, end).
          --source <name>           Only samples from this source. Repeatable.
          --device <name>           Only samples from this device. Repeatable.
          --uuid <uuid>             Only the sample with this UUID. Repeatable.
          --metadata <key[=value]>  Only samples whose metadata has this key (with this
                                    value, compared as text). All given must hold.
                                    Repeatable.
          --where <expr>            Only quantity samples whose value satisfies 'value
                                    OP NUMBER [UNIT]', OP one of < <= > >= == !=: in
                                    UNIT (converted; samples in units that do not
                                    convert do not match), else in the sample's own
                                    unit. All given must hold. Repeatable.
          --category <value>        Only category samples with this value: an integer,
                                    or a constant's name in full or after the type's
                                    prefix (AsleepCore), in any case; every spelling of
                                    a value matches the others. Repeatable.
          -h, --help                Show help information.

        The chart is a standalone SVG file that any browser shows. Intervals and figures
        are those of 'healthlog aggregate', sources merged as there (--source-priority
        as there); the value axis is in --unit when given, else in the type's unit,
        samples in other units converted to it. The time axis is broken around a long
        stretch without data, so one far-off record does not squash the rest. A
        selection with nothing to draw writes nothing and exits 2.
        """

    /// `healthlog workouts --help`.
    static let workouts = """
        OVERVIEW: One row per workout: start, activity, duration, distance, energy, heart rate, elevation gain and route points.

        USAGE: healthlog [--store <dir>] workouts [--distance-unit km|mi] [--energy-unit kcal|kJ] [--utc-offset <offset> | --time-zone <name> | --local] [predicate options] [--format table|csv|ndjson]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --distance-unit <unit>    The unit of distances: km (the default) or mi.
          --energy-unit <unit>      The unit of energy: kcal (the default) or kJ.
          --utc-offset <offset>     Times follow one fixed offset, +HH:MM or -HH:MM,
                                    instead of each sample's own local time.
          --time-zone <name>        Times follow the local calendar of an IANA time zone
                                    (Europe/Berlin), daylight saving included, instead
                                    of each sample's own local time.
          --local                   Each sample's own local time (the default): the zone
                                    its HKTimeZone metadata names, else the offset its
                                    start was recorded with.
          --start <date>            Only samples in the range that starts here (an ISO
                                    8601 instant, or a date meaning its midnight UTC, or
                                    on the clock --utc-offset, --time-zone or --local
                                    names where a command takes them); by default a
                                    sample matches when it overlaps [start, end).
          --end <date>              Only samples in the range that ends here
                                    (exclusive).
          --strict-start            The sample's start must lie in [start, end).
          --strict-end              The sample's end must lie in [start, end).
          --source <name>           Only samples from this source. Repeatable.
          --device <name>           Only samples from this device. Repeatable.
          --uuid <uuid>             Only the sample with this UUID. Repeatable.
          --metadata <key[=value]>  Only samples whose metadata has this key (with this
                                    value, compared as text). All given must hold.
                                    Repeatable.
          --where <expr>            Only quantity samples whose value satisfies 'value
                                    OP NUMBER [UNIT]', OP one of < <= > >= == !=: in
                                    UNIT (converted; samples in units that do not
                                    convert do not match), else in the sample's own
                                    unit. All given must hold. Repeatable.
          --category <value>        Only category samples with this value: an integer,
                                    or a constant's name in full or after the type's
                                    prefix (AsleepCore), in any case; every spelling of
                                    a value matches the others. Repeatable.
          --format <format>         table (the default: aligned columns), csv (a header
                                    row, then one row per workout) or ndjson (one object
                                    per workout).
          -h, --help                Show help information.

        Workouts are listed by start, in each workout's own local time unless a clock
        option says otherwise. Distance and energy are converted from the units the
        workout recorded them in. Heart rate is the mean and the highest of the
        heart-rate samples (of any source) that start during the workout, in beats per
        minute. Elevation gain, in metres, is the workout's HKElevationAscended metadata
        when it has one, else the sum of the rises in altitude between successive points
        of its routes (elevation_from says which). The predicate options select the
        workouts; their heart rates and routes are found by time and by the route's
        workout. In csv and ndjson, duration is in minutes and numbers are rounded:
        minutes and distance to 2 decimals, energy, heart rate and elevation to 1; empty
        (csv) or null (ndjson) where nothing was recorded.
        """

    /// `healthlog sleep --help`.
    static let sleep = """
        OVERVIEW: One row per night: time in bed, asleep, each sleep stage, awake, efficiency, and the first and last time.

        USAGE: healthlog [--store <dir>] sleep [--source-priority <list>] [--utc-offset <offset> | --time-zone <name> | --local] [predicate options] [--format table|csv|ndjson]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --source-priority <list>  Comma-separated sources that win when sources
                                    overlap, highest first; the rest follow Apple Watch,
                                    then iPhone and iPad, then other sources, by name.
          --utc-offset <offset>     Nights and times follow one fixed offset, +HH:MM or
                                    -HH:MM, instead of each sample's own local time.
          --time-zone <name>        Nights and times follow the local calendar of an
                                    IANA time zone (Europe/Berlin), daylight saving
                                    included, instead of each sample's own local time.
          --local                   Each sample's own local time (the default): the zone
                                    its HKTimeZone metadata names, else the offset its
                                    start was recorded with.
          --start <date>            Only samples in the range that starts here (an ISO
                                    8601 instant, or a date meaning its midnight UTC, or
                                    on the clock --utc-offset, --time-zone or --local
                                    names where a command takes them); by default a
                                    sample matches when it overlaps [start, end).
          --end <date>              Only samples in the range that ends here
                                    (exclusive).
          --strict-start            The sample's start must lie in [start, end).
          --strict-end              The sample's end must lie in [start, end).
          --source <name>           Only samples from this source. Repeatable.
          --device <name>           Only samples from this device. Repeatable.
          --uuid <uuid>             Only the sample with this UUID. Repeatable.
          --metadata <key[=value]>  Only samples whose metadata has this key (with this
                                    value, compared as text). All given must hold.
                                    Repeatable.
          --where <expr>            Only quantity samples whose value satisfies 'value
                                    OP NUMBER [UNIT]', OP one of < <= > >= == !=: in
                                    UNIT (converted; samples in units that do not
                                    convert do not match), else in the sample's own
                                    unit. All given must hold. Repeatable.
          --category <value>        Only category samples with this value: an integer,
                                    or a constant's name in full or after the type's
                                    prefix (AsleepCore), in any case; every spelling of
                                    a value matches the others. Repeatable.
          --format <format>         table (the default: aligned columns), csv (a header
                                    row, then one row per night) or ndjson (one object
                                    per night).
          -h, --help                Show help information.

        A night runs from noon to noon, in each sample's own local time unless a clock
        option says otherwise, and is named by the morning it ends; a sample counts in
        the night holding its start. Sources are merged so that no time counts twice: in
        bed is the time any sample covers (in bed, asleep or awake); each stretch of the
        night counts in the stage of the highest-priority source with a stage or awake
        sample there (--source-priority as in aggregate: by default Apple Watch, then
        iPhone and iPad, then other sources), so when a watch and a phone both record a
        night the watch's stages count and the phone fills only what the watch left out.
        Where one source's samples overlap, awake wins, then deep, REM, core, and asleep
        with no stage. Efficiency is asleep (core, deep, REM and unspecified) over in
        bed. The table shows durations as hours and minutes and efficiency as a
        percentage; csv and ndjson give minutes to 1 decimal in columns ending in _min,
        and efficiency as a fraction to 3 decimals.
        """

    /// `healthlog route --help`.
    static let route = """
        OVERVIEW: Write a workout's route (or every route of a date range) as GPX, GeoJSON or CSV.

        USAGE: healthlog [--store <dir>] route [<uuid>] [--start <date>] [--end <date>] [--format gpx|geojson|csv] [-o <file>]

        ARGUMENTS:
          <uuid>                    The UUID of a workout (or of a route).

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --start <date>            Without a UUID: every route that overlaps the range
                                    starting here (an ISO 8601 instant, or a date
                                    meaning its midnight UTC).
          --end <date>              Without a UUID: the end of the range (exclusive).
          --format <format>         gpx (the default), geojson or csv.
          -o, --output <file>       The file to write (mode 0600, replaced atomically)
                                    instead of standard output.
          -h, --help                Show help information.

        Give a workout's UUID (its routes, one GPX track each) or a route's own, or
        --start and --end for every route that overlaps the range, in one file. Every
        point keeps its time, latitude, longitude, elevation, speed, course and
        horizontal and vertical accuracies as imported. GPX 1.1 puts speed, course, hAcc
        and vAcc in each point's extensions, as Apple's export does; GeoJSON is a
        FeatureCollection with a LineString feature per route (coordinates lon, lat,
        elevation; a Point for a route of one point, a null geometry for one without
        points) and the per-point times, speeds, courses and accuracies as arrays in its
        properties (coordTimes, …); CSV is a header row and one row per point. A UUID no
        live sample has, a workout without a route, or a range without one writes
        nothing and exits 2.
        """

    /// `healthlog backup --help`.
    static let report = """
        OVERVIEW: Write a person's record as one self-contained HTML page, to read offline or print for a doctor.

        USAGE: healthlog [--store <dir>] report -o <file.html> [--start <date>] [--end <date>] [--utc-offset <offset> | --time-zone <name> | --local]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          -o, --output <file>       The HTML file to write (its name must end in .html
                                    or .htm).
          --start <date>            Only samples from here on (an ISO 8601 instant, or a
                                    date meaning its midnight on the report's clock); a
                                    sample counts when it overlaps [start, end).
          --end <date>              Only samples before here (exclusive).
          --utc-offset <offset>     Intervals, nights and times follow one fixed offset,
                                    +HH:MM or -HH:MM, instead of each sample's own local
                                    time.
          --time-zone <name>        Intervals, nights and times follow the local
                                    calendar of an IANA time zone (Europe/Berlin),
                                    daylight saving included, instead of each sample's
                                    own local time.
          --local                   Each sample's own local time (the default): the zone
                                    its HKTimeZone metadata names, else the offset its
                                    start was recorded with.
          -h, --help                Show help information.

        The page holds the record at a glance (span, sources and devices, every type
        with its count and dates), then activity (steps, active energy against the
        activity rings' goals, exercise minutes), heart (resting heart rate, daily
        range, heart rate variability), sleep (per night, by stage), body, vitals and
        workouts (a table with each route drawn as a small track, and monthly totals):
        each section only where the store has its data. Every figure is that of
        'healthlog aggregate' for the same type, range and clock, sources merged as
        there; a chart shows days, or weeks or months for a long span (its title says
        which). The file holds everything it shows (inline style and charts, no script,
        nothing fetched), mode 0600, replaced atomically.
        """

    static let backup = """
        OVERVIEW: Copy the store into a directory, consistently, incrementally and verified.

        USAGE: healthlog [--store <dir>] backup [--follow] <dest>

        ARGUMENTS:
          <dest>                    The backup directory, outside the store: new, empty,
                                    or an earlier backup of this store.

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --follow                  Keep the backup current: back up again each time an
                                    append lands (woken as replay --follow is), printing
                                    'healthlog: backed up to seq N' on stderr after each
                                    round, until SIGINT or SIGTERM; then finish the
                                    round, print the backup's head anchor and exit 0.
          -h, --help                Show help information.

        Runs while writers keep writing: the copy holds every append committed when it
        began. Files already in the backup are kept when byte-identical to the store's
        and replaced otherwise, the segment holding the last committed batch is copied
        up to it (a torn tail is never copied), and the copy (itself a store: --store
        DEST reads it) is verified before the command succeeds. Last, a manifest naming
        every file with its size and SHA-256, the store, its timeline and head (itself
        checksummed) is written, which 'healthlog restore' checks. Files are 0600,
        directories 0700. Prints the backup's head anchor on stdout; progress goes to
        stderr when it is a terminal.
        """

    /// `healthlog restore --help`.
    static let restore = """
        OVERVIEW: Restore a backup into the store directory, verified and atomically, as a new timeline.

        USAGE: healthlog [--store <dir>] restore [--force] [--to <anchor|date>] [--dry-run] [--decrypt] [--encrypt] [--cipher xchacha20-poly1305|aes-256-gcm] <src>

        ARGUMENTS:
          <src>                     A directory 'healthlog backup' wrote.

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --force                   Replace the store at the store directory; without it
                                    the directory must be missing or empty.
          --to <anchor|date>        Point-in-time recovery: bring back only the appends
                                    that ended at or before the anchor's position (a
                                    token, 0 or a sequence number), or were committed at
                                    or before the date (2026-11-30, its first instant on
                                    the clock the options below name, or an ISO 8601
                                    instant), never part of an append. 'healthlog log'
                                    lists the appends with their anchors. What the
                                    backup holds after it is discarded history. An
                                    anchor of another store, past the backup's head or
                                    inside history the backup had discarded, a date
                                    after the backup was taken, and a point that keeps
                                    no event (unless it is 0) are refused with exit 3.
          --dry-run                 Say what the restore would keep and discard, and
                                    change nothing.
          --decrypt                 Restore a backup of an encrypted store as a
                                    plaintext store (its secret needed): the same store,
                                    sequence numbers and anchors, every batch written in
                                    the clear, no key slots.
          --encrypt                 Restore a backup of a plaintext store as an
                                    encrypted store: the same store, sequence numbers
                                    and anchors, every batch sealed, one key slot for
                                    the secret given as to 'init --encrypt'
                                    (--passphrase-file or --key-file before the command,
                                    the HEALTHLOG_* variables, or a prompt asked twice).
          --cipher <name>           With --encrypt: the cipher of the store's data key
                                    (default: aes-256-gcm on a CPU with AES
                                    instructions, else xchacha20-poly1305).
          --utc-offset <offset>     A bare --to date is midnight at this offset, +HH:MM
                                    or -HH:MM (default: UTC).
          --time-zone <name>        A bare --to date is midnight in this IANA time zone
                                    (Europe/Berlin).
          -h, --help                Show help information.

        Every file of the backup is checked against its manifest (size and SHA-256) and
        the copy verified before the store directory is touched: a damaged, incomplete
        or tampered backup is refused with exit 1 and the directory is left as it was.
        The new store is built beside the directory and swapped in with one rename, so a
        crash leaves the old store or the new one. The restore starts a new timeline:
        anchors up to the last event kept keep working, anchors into the history it
        discards are refused with exit 3, and new events get sequence numbers above
        every number issued before. Prints the restored store's head anchor on stdout;
        progress goes to stderr when it is a terminal.
        """

    /// `healthlog recover --help`.
    static let recover = """
        OVERVIEW: Copy every readable event of a damaged store into a new store and list what could not be read.

        USAGE: healthlog [--store <dir>] recover <dest>

        ARGUMENTS:
          <dest>                    Where the new store goes: a path that does not
                                    exist, or an empty directory.

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          -h, --help                Show help information.

        Like sqlite3's .recover. Reads the store (it is never modified) batch by batch
        across every segment file, skipping whatever fails its checksum or does not
        decode and picking up at the next sound batch, and writes every readable event
        into a new store at <dest> under its original sequence number, with the same
        store identity (from meta, or from the segment headers when meta is damaged).
        Each lost range is recorded as a timeline gap, so anchors keep working and an
        anchor inside a lost range is refused with exit 3. The new store is indexed and
        verified before it is put in place. Prints 'lost FIRST-LAST' for each range of
        acknowledged sequence numbers that could not be read and 'unreadable FILE bytes
        START-END: REASON' for each damaged byte range on stdout. Exits 0 when every
        acknowledged event was recovered, 1 when some were lost (the new store then
        holds all the rest), 2 when <dest> is not empty.
        """

    /// `healthlog anchor --help`.
    static let anchor = """
        OVERVIEW: Print the anchor of the last committed event.

        USAGE: healthlog [--store <dir>] anchor

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          -h, --help                Show help information.

        A replay from this anchor returns only what is appended later.
        """

    /// `healthlog log --help`.
    static let log = """
        OVERVIEW: List the store's appends and restores, newest first: what made each, when, and the anchor to restore to.

        USAGE: healthlog [--store <dir>] log [--limit <n>] [--format <format>]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --limit <n>               Only the newest n appends, with the restores among
                                    them (0: all, the default).
          --format <format>         table (the default) or ndjson: one object per
                                    append.
          -h, --help                Show help information.

        Each row is one append or restore, newest first. An append shows its sequence
        numbers, when it committed (UTC; for appends made before commit times were
        recorded, when it began, marked with ~), the adds and deletes it holds, what
        made it (the command, the input file, an export's date), and the anchor just
        past it; a restore, what it kept and the timeline it started. To undo an append,
        restore a backup to the anchor of the row below it: 'healthlog restore --force
        --to ANCHOR BACKUP'.
        """

    /// `healthlog stats --help`.
    static let stats = """
        OVERVIEW: Show per-type counts and dates, and the store's size.

        USAGE: healthlog [--store <dir>] stats

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          -h, --help                Show help information.

        Per type: live samples, deleted objects, and the first start and last end of any
        sample of the type ever added. Then events, segments, bytes on disk and the
        compression ratio, and for an encrypted store the cipher new data is sealed
        with. Answered from the index, without reading events.
        """

    /// `healthlog verify --help`.
    static let verify = """
        OVERVIEW: Check every checksum, the sequence continuity and the indexes.

        USAGE: healthlog [--store <dir>] verify

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          -h, --help                Show help information.

        Reads every frame and checks every checksum and that sequence numbers run
        without gaps, then that every index agrees with the segments. Prints each
        problem with its file and byte offset and exits 1 if there is any; a torn tail
        (an unfinished last append, which the next writer cuts) and an index that is
        only behind are notes. Progress goes to stderr when it is a terminal.
        """

    /// `healthlog compact --help`.
    static let compact = """
        OVERVIEW: Drop samples deleted before a horizon, with their deletes; older anchors below it expire. Or rewrite an encrypted store under its newest key.

        USAGE: healthlog [--store <dir>] compact [--horizon <date|anchor>] [--rekey]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --horizon <date|anchor>   Drop deletes appended before this date (an ISO 8601
                                    instant, or YYYY-MM-DD for its midnight UTC), or at
                                    or before this anchor (a token, or a sequence
                                    number), with the samples they deleted.
          --rekey                   Encrypted store: also rewrite every segment sealed
                                    under a key epoch older than the current one
                                    ('healthlog key rotate' starts a new one), then
                                    rebuild the indexes, so no file needs the older
                                    keys.
          -h, --help                Show help information.

        Rewrites only the segments holding such events, as new files beside the old
        ones, and commits them with one atomic rename under the writer lock: a crash at
        any instant leaves the old log or the new one, and readers running meanwhile see
        one or the other. Afterwards an anchor issued before the compaction that points
        below the horizon is refused with exit 3 and the advice to resync from 0;
        anchors issued after it stay valid. Sequence numbers and compacted UUIDs are
        never reused. Prints what was dropped and the bytes reclaimed on stderr;
        progress goes to stderr when it is a terminal.
        """

    /// `healthlog reindex --help`.
    static let reindex = """
        OVERVIEW: Rebuild the indexes from the segments.

        USAGE: healthlog [--store <dir>] reindex

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          -h, --help                Show help information.

        Removes and rebuilds each segment's sidecar index, the UUID index and the
        sync-identifier table, holding the writer lock. Indexes are derived data:
        healthlog also detects and rebuilds damaged or stale ones by itself. Progress
        goes to stderr when it is a terminal.
        """

    /// `healthlog import --help`.
    static let importExport = """
        OVERVIEW: Import an Apple Health export (export.zip or export.xml), idempotently.

        USAGE: healthlog [--store <dir>] import [--mirror] [--no-sync] <file>

        ARGUMENTS:
          <file>                    The export: the zip the Health app writes, or the
                                    XML document inside it.

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --mirror                  Delete (with delete events) the samples earlier
                                    imports brought in that this export no longer holds;
                                    samples that did not come from an import are never
                                    touched.
          --no-sync                 Do not wait for fdatasync before reporting success.
          -h, --help                Show help information.

        Each record gets a UUID derived from its content, so importing the same export
        again, or a later export that holds an earlier one, adds only what is new.
        Besides the records, workouts and correlations of export.xml, the zip's workout
        routes (GPX), electrocardiograms (CSV) and clinical records (FHIR) are imported
        as samples; a route or clinical file the XML names but the zip lacks or cannot
        parse is listed and the rest imports. The whole document is checked before
        anything is written: malformed XML, an empty, truncated or non-export file exits
        2 with what is wrong (and where) and writes nothing. Prints the new anchor on
        stdout; counts per element and per type, what could not be mapped, and a summary
        on stderr. Progress goes to stderr when it is a terminal.
        """

    /// `healthlog init --help`.
    static let initStore = """
        OVERVIEW: Create an empty store, encrypted with --encrypt.

        USAGE: healthlog [--store <dir>] init [--encrypt] [--cipher xchacha20-poly1305|aes-256-gcm]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --encrypt                 Encrypt the store; the secret given (or typed twice)
                                    opens its first key slot.
          --cipher <name>           With --encrypt: the cipher of the store's first data
                                    key (default: aes-256-gcm on a CPU with AES
                                    instructions, else xchacha20-poly1305).
          -h, --help                Show help information.

        Without --encrypt the store is the plaintext one the first append would make.
        With it, every sample the store holds is sealed with AES-256-GCM (on a CPU with
        AES instructions; else XChaCha20-Poly1305; --cipher chooses) under a random data
        key, which the store keeps wrapped in key slots: the first slot opens with the
        passphrase or key file given (--passphrase-file, --key-file,
        HEALTHLOG_PASSPHRASE_FILE, HEALTHLOG_KEY_FILE, HEALTHLOG_PASSPHRASE, else typed
        twice at a prompt on a terminal). The store is built beside the directory and
        renamed into place, so a crash leaves no store or a complete one. If every
        passphrase and key file of a store is lost, its data cannot be read by anyone.
        Fails with exit 2 when a store is already there. Prints the store's identity on
        stdout.
        """

    /// `healthlog key --help`.
    static let key = """
        OVERVIEW: Manage an encrypted store's key slots, or rotate its data key.

        USAGE: healthlog [--store <dir>] key <action> [--new-passphrase-file <file>] [--new-key-file <file>] [--cipher xchacha20-poly1305|aes-256-gcm]

        ARGUMENTS:
          <action>                  list, add, remove ID, or rotate.

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --new-passphrase-file <file>
                                    For 'key add': the new slot's passphrase, read from
                                    this file less one trailing newline (default:
                                    $HEALTHLOG_NEW_PASSPHRASE_FILE, else typed twice at
                                    a prompt).
          --new-key-file <file>     For 'key add': a key file (at least 32 random bytes)
                                    that opens the new slot, instead of a passphrase.
          --cipher <name>           For 'key rotate': the cipher of the new data key.
          -h, --help                Show help information.

        'key list' prints each slot (id, kind, when it was made, the data-key epochs it
        holds), the current epoch and the epochs the segments' batches are sealed under;
        it needs no secret, and with one (or after 'unlock') it also checks each
        data-key entry's MAC and names the entries that fail, which no command uses. The
        others open the store with its secret first (as every command does) and change
        only slot files, each replaced atomically and durably under the writer lock: a
        crash leaves the old slots or the new ones. 'key add' makes a slot for a new
        passphrase (--new-passphrase-file, HEALTHLOG_NEW_PASSPHRASE_FILE, else typed
        twice at a prompt) or key file (--new-key-file) and prints its id. 'key remove
        ID' removes a slot, never the last one nor the one the secret given opens. To
        change a passphrase, add the new one, then remove the old slot giving the new
        one. 'key rotate' starts a new data-key epoch for everything written after it
        (older data keeps its epoch's key) and prints the epoch; --cipher chooses its
        cipher (default: aes-256-gcm on a CPU with AES instructions, else
        xchacha20-poly1305). 'key list' ends with each epoch's cipher.
        """

    /// `healthlog unlock --help`.
    static let unlock = """
        OVERVIEW: Keep an encrypted store's keys in the kernel keyring for a while.

        USAGE: healthlog [--store <dir>] unlock [--for <duration>]

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          --for <duration>          How long to keep the keys: a number with s, m, h or
                                    d (30m, 8h; default 15m, at most 7d).
          -h, --help                Show help information.

        Opens the store with its secret once, then keeps its unwrapped data keys in the
        user's kernel keyring (Linux keyutils), which drops them when the time is up:
        until then, this user's commands on the store ask for no secret and pay no key
        derivation. 'healthlog lock' drops them at once; 'key rotate' updates them.
        Where no kernel keyring is available (a container that forbids it, or another
        system) it says so and exits 1.
        """

    /// `healthlog lock --help`.
    static let lock = """
        OVERVIEW: Drop the keys 'healthlog unlock' keeps for an encrypted store.

        USAGE: healthlog [--store <dir>] lock

        OPTIONS:
          --store <dir>             The store directory (default: $HEALTHLOG_STORE, else
                                    ./healthlog.store).
          -h, --help                Show help information.

        After it, commands on the store need its passphrase or key file again. Needs no
        secret; a store that is not unlocked is no error.
        """
}
