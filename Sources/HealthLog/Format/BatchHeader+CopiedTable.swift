extension BatchHeader {
    /// A sealed header's table as a segment index's sealed copy gives it (see
    /// ``BatchHeader/decode(payload:verifyingChecksum:names:place:shell:copied:)``): its
    /// group entries, and the bytes after them (the dropped list, or its count, and the
    /// origin).
    struct CopiedTable {
        /// The group entries, in the table's order: all of them, or those of ``part``.
        var groups: [Group]
        /// The table's bytes after its group entries: a slice of the opened copy, so a
        /// dropped list decoded from it shares the copy's storage rather than being copied.
        var tail: ArraySlice<UInt8>
        /// Set when ``groups`` holds only some of the table's groups (those of the types a
        /// query asks for, from a by-type copy).
        var part: Part? = nil
        /// Whether ``tail`` lists the dropped events (a copy in the whole layout, or a by-type
        /// one written by earlier builds); else it holds their count only, and a header
        /// decoded with it keeps its list as a count (``DroppedList/countOnly()``).
        var listsDropped = true

        /// What a table of only some groups gives of the others.
        struct Part {
            /// Each given group's position in the table, which its frame's place names.
            var positions: [Int]
            /// Where each given group's frame starts, from the start of the batch's frames.
            var frameOffsets: [Int]
            /// The length of all the batch's frames, which its fixed fields must show.
            var framesLength: Int
        }
    }
}
