import Foundation

extension Mastodon {
    /// A JSON decoder for Mastodon entities: dates in any form ``DateFormat`` reads.
    ///
    /// Every decoder in this module comes from here, so all of them read dates the same way.
    /// A date it cannot read is a `DecodingError.dataCorrupted` at the date's coding path.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = DateFormat.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a date: \"\(text)\"")
            }
            return date
        }
        return decoder
    }

    /// A JSON encoder that writes entities the way Mastodon does: dates as
    /// `2026-11-20T09:15:02.000Z`, keys sorted so the output is stable.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(DateFormat.timestamp(date))
        }
        return encoder
    }

    /// Decodes `type` from `data` with a decoder from ``makeDecoder()``.
    ///
    /// - Throws: ``DecodingFailure`` naming what was wrong and where; never traps on any input.
    public static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws(DecodingFailure) -> Value {
        do {
            return try makeDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw DecodingFailure(error)
        } catch {
            throw DecodingFailure(path: "", problem: String(describing: error))
        }
    }
}
