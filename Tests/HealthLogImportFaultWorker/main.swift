import HealthLogImportWorkerKit

// The test-only twin of `healthlog-import`, run by the fault tool's `import`: the same
// worker, taking the fault plan `--fault` passes. Built for the fault tests; not a product.
ImportWorkerMain.run(Array(CommandLine.arguments.dropFirst()), acceptsFaults: true)
