import HealthLogImportWorkerKit

// `healthlog-import`, the worker `healthlog import` runs (see `ImportWorkerMain`). It
// injects no faults: a fault plan among its arguments is refused.
ImportWorkerMain.run(Array(CommandLine.arguments.dropFirst()), acceptsFaults: false)
