@_spi(Benchmarks) import Feedline

/// Counting a draft's length as the server does, on a 5,000-character draft with 50 URLs and 50
/// mentions (25 `@user@domain`, 25 `@user`), 20 emoji and plain words: µs per keystroke-sized edit.
/// - full: `PostLength.count` of the whole draft;
/// - incremental: `PostLengthCounter.update` after one character is inserted at a random place.
///
/// Both go through the same 500 successive keystrokes (built untimed, so the draft grows from 5,000
/// to 5,500 characters); a sample is the time for all 500 divided by 500. Every count is checked
/// against `PostLength.count` once before timing, and each sample's sum of counts after it.
enum ComposeBench {
    static let keystrokes = 500

    static func run(_ options: Options) -> [Result] {
        progress("compose length")
        let draft = draft()
        expect(draft.count == 5_000, "compose: the draft has \(draft.count) characters")
        var random = SeededGenerator(seed: 0xC0_4E05E)
        var scalars = Array(draft.unicodeScalars)
        let texts = (0..<keystrokes).map { _ in
            scalars.insert("k", at: Int(random.next() % UInt64(scalars.count + 1)))
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            return text
        }
        let counts = texts.map { PostLength.count(text: $0, contentWarning: nil) }
        let expectedSum = counts.reduce(0, +)
        var check = PostLengthCounter()
        check.update(text: draft, contentWarning: nil)
        for (text, count) in zip(texts, counts) {
            expect(check.update(text: text, contentWarning: nil) == count, "compose: the counter disagrees with the full count")
        }

        let full = Contender(name: "full") {
            var sum = 0
            let (_, milliseconds) = timed {
                for text in texts { sum &+= PostLength.count(text: text, contentWarning: nil) }
            }
            expect(sum == expectedSum, "compose: full counts sum to \(sum)")
            return milliseconds / Double(keystrokes)
        }
        let incremental = Contender(name: "incremental") {
            var counter = PostLengthCounter()
            counter.update(text: draft, contentWarning: nil)
            var sum = 0
            let (_, milliseconds) = timed {
                for text in texts { sum &+= counter.update(text: text, contentWarning: nil) }
            }
            expect(sum == expectedSum, "compose: incremental counts sum to \(sum)")
            return milliseconds / Double(keystrokes)
        }
        let medians = interleaved(warmup: 2, rounds: options.rounds(21, quick: 5), [full, incremental])
        let shape = "\(draft.count) characters, 50 URLs, 50 mentions"
        return [
            Result(
                name: "compose.length full count", oursMilliseconds: medians[0], peer: nil, peerMilliseconds: nil,
                note: String(format: "PostLength.count of the draft (%@): %.2f µs", shape, medians[0] * 1_000)
            ),
            Result(
                name: "compose.length per keystroke", oursMilliseconds: medians[1], peer: "compose.length full count",
                peerMilliseconds: medians[0],
                note: String(format: "PostLengthCounter.update after a one-character insert at a random place: %.2f µs (target < 50)", medians[1] * 1_000)
            ),
        ]
    }

    /// The words, shuffled with a fixed seed: 50 URLs, 25 remote and 25 local mentions, 20 emoji,
    /// and plain words of 2–8 letters up to 5,000 characters.
    static func draft() -> String {
        var random = SeededGenerator(seed: 0xD4AF7)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        var words = (0..<50).map { _ in "https://example.com/posts/\(100_000 + below(900_000))" }
        words += (0..<25).map { _ in "@user\(10 + below(90))@example.social" }
        words += (0..<25).map { _ in "@local\(10 + below(90))" }
        words += Array(repeating: "🙂", count: 20)
        // Characters once joined with single spaces.
        var length = words.reduce(words.count - 1) { $0 + $1.count }
        while length < 4_999 {
            let size = min(2 + below(7), 4_999 - length)
            words.append(String(repeating: "w", count: size))
            length += size + 1
        }
        if length < 5_000 { words[words.count - 1] += "w" }
        words.shuffle(using: &random)
        return words.joined(separator: " ")
    }
}
