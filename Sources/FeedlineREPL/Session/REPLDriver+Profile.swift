@_spi(FeedService) import Feedline
import Foundation

/// `profile edit …`: your profile through the session's one profile store — your profile's
/// header and your name on your posts follow at once on every screen — and what the server
/// answered.
extension REPLDriver {
    func runProfileEdit(_ command: ProfileEditCommand) {
        switch command {
        case .options(let options):
            for (role, path) in [("avatar", options.edit.avatar), ("header image", options.edit.header)] {
                guard let path else { continue }
                if let problem = Self.imageProblem(path, for: role) {
                    refuse(problem)
                    return
                }
            }
            sendProfile(options.edit)
        case .editor:
            guard options.editor != nil else {
                refuse("profile edit alone opens your profile in $EDITOR, and neither VISUAL nor EDITOR is set (or this is a script); give what to change: \(CommandParser.profileEditUsage).")
                return
            }
            session.loadOwnProfile { [weak self] result in
                guard let self else { return }
                switch result {
                case .success(let profile): self.editProfile(profile)
                case .failure(let failure): self.refuse("Could not load your profile: \(failure.message)")
                }
                self.flushIfFollowing()
            }
        }
    }

    /// Opens `profile` in the editor and sends what changed; a line it cannot read sends nothing.
    private func editProfile(_ profile: OwnProfile) {
        guard let editor = options.editor else { return }
        switch editor(ProfileText.text(of: profile), ProfileText.context, "profile") {
        case .success(let text):
            switch ProfileText.read(text, over: profile) {
            case .success(let edited):
                let edit = ProfileEdit(from: profile, to: edited)
                guard !edit.isEmpty else {
                    say("Nothing changed; nothing was sent.")
                    return
                }
                sendProfile(edit)
            case .failure(let error):
                refuse(error.message)
            }
        case .failure(let failure):
            refuse(failure.message)
        }
    }

    private func sendProfile(_ edit: ProfileEdit) {
        do {
            try session.editProfile(edit)
            say("Changing your profile: \(Self.profileChanges(edit))…")
        } catch {
            refuse(error.message)
        }
    }

    /// Why the file `path` cannot be your `role`, or `nil` (its first bytes say whether it is an image).
    static func imageProblem(_ path: String, for role: String) -> String? {
        let bytes: [UInt8]? = FileHandle(forReadingAtPath: path).map { handle in
            defer { try? handle.close() }
            return [UInt8]((try? handle.read(upToCount: 12)) ?? Data())
        }
        return ProfileImage.problem(path, for: role, exists: FileManager.default.fileExists(atPath: path), firstBytes: bytes)
    }

    /// What an edit changes, in words: "the name Ada Lovelace, the bio, 2 fields, locked".
    static func profileChanges(_ edit: ProfileEdit) -> String {
        var parts: [String] = []
        if let name = edit.displayName { parts.append("the name " + (name.isEmpty ? "(none: your handle shows)" : TextWidth.sanitize(name))) }
        if let bio = edit.bio { parts.append(bio.isEmpty ? "no bio" : "the bio") }
        if let fields = edit.fields { parts.append(fields.isEmpty ? "no fields" : fields.count == 1 ? "1 field" : "\(fields.count) fields") }
        if let locked = edit.locked { parts.append(locked ? "follows need your approval" : "anyone may follow") }
        if let bot = edit.bot { parts.append(bot ? "a bot" : "not a bot") }
        if let discoverable = edit.discoverable { parts.append(discoverable ? "in the directory" : "out of the directory") }
        if edit.avatar != nil { parts.append("a new avatar") }
        if edit.header != nil { parts.append("a new header image") }
        return parts.joined(separator: ", ")
    }

    /// What your profile's outcome says: done, or refused with the server's sentence.
    func profileAnswered(_ outcome: Outcome) {
        switch outcome {
        case .done: reports.append("Done: your profile is saved.")
        case .notApplied: reports.append("Done: your profile is saved, as the server keeps it.")
        case .refused(_, let sentence):
            // A refusal of a change asked again meanwhile says nothing: the next one goes.
            if session.ownProfile.isPending { return }
            let ended = sentence.last.map { ".!?".contains($0) } ?? false
            reports.append("Could not change your profile: \(TextWidth.sanitize(sentence))\(ended ? "" : ".") It is back as it was.")
        case .queued: return
        }
    }
}
