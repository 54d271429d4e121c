import FeedlineAccounts
import Foundation

// The config file's target.
extension FuzzTarget {
    /// Any bytes as `config.toml`. Invariants beyond "returns" (TOMLKit's parser used to abort
    /// on some documents, so returning is most of it):
    /// - a file that is refused is refused with one sentence that names the file, ends in a full
    ///   stop, holds no control character, and names a line of the file when it names one;
    /// - a file that is taken holds no setting on a line the file does not have.
    static func config(_ data: Data) throws(Finding) {
        let text = String(decoding: data, as: UTF8.self)
        let url = URL(fileURLWithPath: "/home/fuzz/.config/feedline/config.toml")
        let lines = text.reduce(1) { $1 == "\n" || $1 == "\r\n" ? $0 + 1 : $0 }
        do {
            let config = try ConfigFile(parsing: text, url: url, home: URL(fileURLWithPath: "/home/fuzz"))
            let settingLines = [config.account?.line, config.timeline?.line, config.width?.line, config.color?.line, config.pageSize?.line, config.history?.line]
            for line in settingLines.compactMap({ $0 }) where !(1...lines).contains(line) {
                throw Finding(description: "a setting on line \(line) of \(lines): \(text.debugDescription)")
            }
        } catch let error as ConfigFileError {
            let sentence = error.description
            if !sentence.hasPrefix("The config file \(url.path)") || !sentence.hasSuffix(".") {
                throw Finding(description: "not one sentence naming the file: \(sentence.debugDescription)")
            }
            if sentence.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw Finding(description: "a control character in \(sentence.debugDescription)")
            }
            if let line = error.line, !(1...lines).contains(line) {
                throw Finding(description: "line \(line) of a file of \(lines) lines: \(sentence.debugDescription)")
            }
        } catch let finding as Finding {
            throw finding
        } catch {
            throw Finding(description: "an error that is not a ConfigFileError: \(error)")
        }
    }
}
