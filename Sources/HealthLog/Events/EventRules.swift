/// The per-kind rules of the event line that go beyond JSON types: which fields an add of each
/// kind needs and which it may not carry, what a delete may carry, `end ≥ start`.
enum EventRules {
    /// Checks `event`, whose fields present are the bits of `seen`; fills `end` from `start`.
    static func check(_ event: inout ParsedEvent, seen: UInt32) throws {
        func has(_ field: Field) -> Bool { seen & (1 << field.rawValue) != 0 }
        /// Throws for the lowest-numbered field of `mask` present in `seen`: the first that
        /// the rule lists, since each mask is written in field order.
        func forbid(_ mask: UInt32, _ why: @autoclosure () -> String) throws {
            let present = seen & mask
            guard present != 0, let field = Field(rawValue: present.trailingZeroBitCount) else { return }
            throw FieldError(field: field.name, reason: why())
        }
        if event.syncIdentifier != nil, event.syncVersion == nil {
            throw FieldError(field: "metadata", reason: "HKMetadataKeySyncIdentifier needs HKMetadataKeySyncVersion")
        }
        if let start = event.start, let end = event.end, end.microseconds < start.microseconds {
            throw FieldError(field: "end", reason: "is before start")
        }
        if event.isDelete {
            guard event.uuid != nil else { throw FieldError(field: "uuid", reason: "is required on a delete") }
            let addOnly = Field.value.bit | Field.unit.bit | Field.sourceVersion.bit | Field.activity.bit | Field.duration.bit
                | Field.totals.bit | Field.objects.bit | Field.workout.bit | Field.locations.bit | Field.voltages.bit
            try forbid(addOnly, "is not allowed on a delete")
            return
        }
        guard let kind = event.kind else { throw FieldError(field: "type", reason: "is required on an add") }
        guard event.start != nil else { throw FieldError(field: "start", reason: "is required on an add") }
        if event.end == nil {
            event.end = event.start
            event.endToken = event.startToken
        }
        if kind != .workout { try forbid(Field.activity.bit | Field.duration.bit | Field.totals.bit, "is only for workouts") }
        if kind != .correlation { try forbid(Field.objects.bit, "is only for correlations") }
        if kind != .workoutRoute { try forbid(Field.workout.bit | Field.locations.bit, "is only for workout routes") }
        switch kind {
        case .quantity:
            guard case .number = event.value else {
                throw FieldError(field: "value", reason: has(.value) ? "must be a number for a quantity type" : "is required for a quantity type")
            }
            guard event.unit != nil else { throw FieldError(field: "unit", reason: "is required for a quantity type") }
        case .category:
            switch event.value {
            case .number(_, let isInteger) where !isInteger:
                throw FieldError(field: "value", reason: "must be an integer or a constant's name for a category type")
            case nil: throw FieldError(field: "value", reason: "is required for a category type")
            default: break
            }
            try forbid(Field.unit.bit, "is only for quantity types")
        case .workout:
            guard event.activity != nil else { throw FieldError(field: "activity", reason: "is required for a workout") }
            try forbid(Field.value.bit | Field.unit.bit, "is not used by workouts (use totals)")
        case .correlation:
            guard let objects = event.objects, !objects.isEmpty else {
                throw FieldError(field: "objects", reason: "must list at least one member UUID")
            }
            try forbid(Field.value.bit | Field.unit.bit, "is not used by correlations")
        case .characteristic:
            guard event.value != nil else { throw FieldError(field: "value", reason: "is required for a characteristic") }
        case .workoutRoute:
            guard event.locations != nil else { throw FieldError(field: "locations", reason: "is required for a workout route") }
            try forbid(Field.value.bit | Field.unit.bit, "is not used by workout routes (use locations)")
        case .activitySummary, .dataType:
            break
        }
    }
}

private extension Field {
    /// The field's bit in a "seen" mask.
    var bit: UInt32 { 1 << UInt32(rawValue) }
}
