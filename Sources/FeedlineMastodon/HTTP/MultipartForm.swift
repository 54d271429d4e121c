import Foundation

/// A `multipart/form-data` body, as Mastodon reads uploads (`POST /api/v2/media`) and a
/// profile's change (`PATCH /api/v1/accounts/update_credentials`): text fields and files, in
/// the order added.
struct MultipartForm {
    /// What separates the parts (never inside one: a random UUID).
    let boundary: String
    private var data = Data()

    init(boundary: String = "feedline-\(UUID().uuidString)") {
        self.boundary = boundary
    }

    /// Adds the text field `name` (one of ours, never with a quote) with `value`.
    mutating func field(_ name: String, _ value: String) {
        data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
    }

    /// Adds the file field `name` with `contents`, named `filename` (quotes dropped) of `contentType`.
    mutating func file(_ name: String, filename: String, contentType: String, _ contents: Data) {
        let filename = filename.replacingOccurrences(of: "\"", with: "")
        data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8))
        data.append(contents)
        data.append(Data("\r\n".utf8))
    }

    /// The whole body, closed, with its content type.
    var body: (data: Data, contentType: String) {
        (data + Data("--\(boundary)--\r\n".utf8), "multipart/form-data; boundary=\(boundary)")
    }
}
