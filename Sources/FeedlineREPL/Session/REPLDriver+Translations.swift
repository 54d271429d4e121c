import Feedline

/// `translate [N]` and `original [N]`: a post's translation under the original, on every screen
/// of the post at once (the session's post store keeps it).
extension REPLDriver {
    /// `translate [N]`: asks the server for the translation of row N's post (or the open
    /// post's); the post screen shows it under the original, and a refusal is said with the
    /// server's sentence when it comes.
    func translate(row number: Int?) {
        guard let post = targetPost(number, name: .translate, onPost: "translates that post") else { return }
        let original = post.content
        guard !original.text.allSatisfy(\.isWhitespace) else {
            refuse("There is no text to translate in \(number.map { "row \($0)'s post" } ?? "this post").")
            return
        }
        if session.store.interaction(original.id)?.translatedText != nil {
            say("The translation shows already; original shows the post alone.")
            return
        }
        let what = number.map { "row \($0)'s post" } ?? "the post"
        askedOnPosts[.translation(original.id)] = (what + " (" + Self.excerpt(original.text) + ")", nil)
        if let refusal = session.translate(post: original.id) {
            askedOnPosts[.translation(original.id)] = nil
            refuse("Could not translate \(what): \(refusal.message)")
        }
    }

    /// `original [N]`: row N's post (or the open post) without its translation.
    func showOriginal(row number: Int?) {
        guard let post = targetPost(number, name: .original, onPost: "shows that post without its translation") else { return }
        let original = post.content
        if !session.showOriginal(post: original.id) {
            refuse("No translation of \(number.map { "row \($0)'s post" } ?? "this post") shows; translate shows one.")
            return
        }
        askedOnPosts[.translation(original.id)] = nil
        say("\(number.map { "Row \($0)'s post" } ?? "The post") shows without its translation.")
    }
}
