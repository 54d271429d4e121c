@_spi(FeedService) import Feedline

extension InstanceRule {
    /// The rule as Mastodon sends it (`Rule`).
    init(_ rule: Mastodon.Rule) {
        self.init(id: rule.id, text: rule.text, hint: rule.hint ?? "")
    }
}
