import FeedlineJSONL
import Foundation

// The JSON-lines front's target.
extension FuzzTarget {
    /// Any bytes as one protocol line. Invariants beyond "returns":
    /// - an error has a non-empty message, and carries the line's `"id"` whenever the line is a
    ///   JSON object (so a client can tell which command failed); a command carries it too;
    /// - law: a JSON value written back (``JSONLValue/json``) reads as the same value, so ids are
    ///   echoed exactly as sent.
    static func jsonlCommand(_ data: Data) throws(Finding) {
        let line = String(decoding: data, as: UTF8.self)
        let value = try? JSONDecoder().decode(JSONLValue.self, from: Data(line.utf8))
        var id: JSONLValue?
        if case .object(let pairs)? = value { id = pairs.first { $0.0 == "id" }?.1 }
        switch JSONLCommand.parse(line) {
        case .success(let command):
            if command.id != id { throw Finding(description: "command id \(String(describing: command.id)) for \(line.debugDescription)") }
        case .failure(let error):
            if error.message.isEmpty { throw Finding(description: "empty message for \(line.debugDescription)") }
            if case .object? = value, error.id != id {
                throw Finding(description: "error id \(String(describing: error.id)) ≠ \(String(describing: id)) for \(line.debugDescription)")
            }
        }
        if let value {
            let written = value.json
            guard let reread = try? JSONDecoder().decode(JSONLValue.self, from: Data(written.utf8)) else {
                throw Finding(description: "\(line.debugDescription) written as \(written.debugDescription) does not read back")
            }
            if reread.json != written { throw Finding(description: "\(written.debugDescription) reads back as \(reread.json.debugDescription)") }
        }
    }
}
