import Feedline
import Foundation

/// What a post carries besides its text, as a row says it: `[image]`, `[2 images]`,
/// `[image, video]`, `[poll, 2h left]`, `[2 images, poll, ended]`.
enum PostCarries {
    /// The bracketed note for `media` and `poll`, with a poll's time left counted from `now`;
    /// `nil` when the post carries neither.
    static func note(media: [Media], poll: Poll?, now: Date) -> String? {
        var parts: [String] = []
        var counts: [(kind: Media.Kind, count: Int)] = []
        for item in media {
            if let index = counts.firstIndex(where: { $0.kind == item.kind }) {
                counts[index].count += 1
            } else {
                counts.append((item.kind, 1))
            }
        }
        for (kind, count) in counts {
            let (one, many) = names(kind)
            parts.append(count == 1 ? one : "\(count) \(many)")
        }
        if let poll {
            parts.append("poll")
            if let left = state(of: poll, now: now) { parts.append(left) }
        }
        return parts.isEmpty ? nil : "[" + parts.joined(separator: ", ") + "]"
    }

    /// `ended` for a poll that closed, `2h left` for one that closes later, `nil` for one
    /// without an end.
    static func state(of poll: Poll, now: Date) -> String? {
        if poll.expired { return "ended" }
        guard let end = poll.expiresAt else { return nil }
        let seconds = end.timeIntervalSince(now)
        guard seconds > 0 else { return "ended" }
        return timeLeft(seconds) + " left"
    }

    /// `45s`, `12m`, `2h`, `3d`: the time until something, in its largest whole unit.
    static func timeLeft(_ seconds: TimeInterval) -> String {
        switch seconds {
        case ..<60: "\(max(1, Int(seconds)))s"
        case ..<3600: "\(Int(seconds / 60))m"
        case ..<86_400: "\(Int(seconds / 3600))h"
        default: "\(Int(seconds / 86_400))d"
        }
    }

    private static func names(_ kind: Media.Kind) -> (one: String, many: String) {
        switch kind {
        case .image: ("image", "images")
        case .video: ("video", "videos")
        case .gifv: ("GIF", "GIFs")
        case .audio: ("audio", "audio files")
        case .unknown: ("attachment", "attachments")
        }
    }
}
