extension ReadableEntity {
    /// Decodes tolerantly, by the entity's one reading (its `init(reading:)`, see the type);
    /// throws a `DecodingError` at the offending coding path.
    public init(from decoder: any Decoder) throws {
        try self.init(reading: decoder.container(keyedBy: CodingKeys.self))
    }
}
