/// An option without a value, `--no-sync`; read back as a `Bool`.
struct Flag: Declared {
    let declaration: Declaration

    init(_ name: String, help: String) {
        declaration = Declaration(name: name, kind: .flag, help: help)
    }
}
