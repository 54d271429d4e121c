import Feedline
import Foundation

/// What completing a word in a draft asks of the sandbox, as Mastodon answers
/// `GET /api/v1/accounts/search?resolve=false` and `GET /api/v1/custom_emojis`.
extension SandboxService: ComposeSuggestionService {
    /// Up to `limit` accounts the sandbox knows (never one only a lookup by full handle finds)
    /// whose handle or display name starts with `prefix`, in the directory's order. A `search` request.
    package func accounts(matching prefix: String, limit: Int) async throws -> [Author] {
        try await performOnAccounts(.search) { state, _ throws(SandboxError) in
            let wanted = String(prefix.drop { $0 == "@" }).lowercased()
            guard !wanted.isEmpty, !wanted.contains("@") else { return [] }
            return state.searchAccounts(wanted).compactMap { state.accounts.profile(of: $0)?.author }.filter { author in
                author.handle.lowercased().hasPrefix(wanted) || author.displayName.lowercased().hasPrefix(wanted)
            }.prefix(max(0, limit)).map { $0 }
        }
    }

    /// The scenario's custom emoji (``SandboxScenario/customEmojis``). A `custom_emojis` request.
    package func customEmoji() async throws -> [CustomEmoji] {
        try await performOnAccounts(.customEmojis) { state, _ throws(SandboxError) in
            state.scenario.customEmojis.map(CustomEmoji.init)
        }
    }
}
