/// One attribute of an export element: its name (`prefix:name` with a namespace prefix) and
/// its value. A struct, not a `(name, value)` tuple: an array of elements is freed through
/// the struct's own destroy, where a tuple's goes through the runtime's generic one, field
/// by field, for every attribute of every element.
struct ExportAttribute: Sendable {
    /// The attribute's name.
    var name: String
    /// The attribute's value, entity references expanded.
    var value: String
}
