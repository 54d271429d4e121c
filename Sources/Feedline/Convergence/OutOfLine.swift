/// A value kept out of line: one reference wherever it is stored, shared by copies until one of
/// them is given a new value (never changed in place, so copies cannot see each other's). For the
/// rarely set parts of a machine that is stored and copied many times.
package indirect enum OutOfLine<Value: Hashable & Sendable>: Hashable, Sendable {
    case stored(Value)

    package init(_ value: Value) { self = .stored(value) }

    /// The value kept.
    package var value: Value {
        switch self {
        case .stored(let value): value
        }
    }
}
