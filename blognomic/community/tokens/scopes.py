"""What a token may be allowed to do. Each scope opens a group of the API's writes; none gives more than its
owner may do in the browser, and the admin scope is offered only to admins (and acts only while they are)."""

READ = "read"
VOTE = "vote"
COMMENT = "comment"
POST = "post"
GNDT = "gndt"
ADMIN = "admin"

SCOPE_CHOICES = [
    (READ, "Read as you: what only you may see (your hidden GNDT values, your notices)"),
    (VOTE, "Vote and change your votes"),
    (COMMENT, "Comment without voting"),
    (POST, "Post matters and edit them within the edit window"),
    (GNDT, "Update your GNDT values and take declared actions"),
    (ADMIN, "Resolve matters and other admin actions (admins only)"),
]
SCOPES = [value for value, _ in SCOPE_CHOICES]
SCOPE_LABELS = dict(SCOPE_CHOICES)
