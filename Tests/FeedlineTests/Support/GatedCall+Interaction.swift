@_spi(FeedService) import Feedline
import FeedlineTestSupport

extension GatedCall {
    /// What an interaction call asks for: its kind, value and post (as its description names
    /// them, `interaction(favourite true p1)`); `nil` for other calls.
    var interaction: (kind: InteractionKind, value: Bool, id: PostID)? {
        guard kind == .interaction, let value else { return nil }
        let name = description.dropFirst("interaction(".count).prefix { $0 != " " }
        guard let interaction = InteractionKind(rawValue: String(name)) else { return nil }
        return (interaction, value, PostID(key))
    }
}
