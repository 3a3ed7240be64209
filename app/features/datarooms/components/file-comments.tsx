import { useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { nativeSelectClassName } from "~/components/ui/native-select";
import { Textarea } from "~/components/ui/textarea";
import { showToast } from "~/components/ui/toast";
import { http, HttpError } from "~/lib/http";
import { COMMENT_MAX_LENGTH } from "../comments.constants";
import type { CommentView, FileComments, Person, ThreadView } from "../comments.server";

const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const whenText = (iso: string) => `${when.format(new Date(iso))} UTC`;

/** The text of a comment with each "@Name" it mentions set apart. */
function CommentBody({ body, mentions }: { body: string; mentions: Person[] }): ReactNode {
  const names = [...new Set(mentions.map((person) => `@${person.name}`))].sort((a, b) => b.length - a.length);
  if (names.length === 0) return body;
  const escaped = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const parts = body.split(new RegExp(`(${escaped.join("|")})`, "g"));
  return parts.map((part, index) =>
    names.includes(part) ? (
      <strong key={index} className="font-semibold text-brand-700">
        {part}
      </strong>
    ) : (
      part
    ),
  );
}

/** Writing a comment or a reply: the text, and people to mention picked from the room's list (inserted as "@Name"). */
function CommentForm({ fileId, people, threadId, label, submitLabel, onDone }: { fileId: string; people: Person[]; threadId?: string; label: string; submitLabel: string; onDone: () => void }) {
  const [draft, setDraft] = useState("");
  const [picked, setPicked] = useState<Person[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const textRef = useRef<HTMLTextAreaElement | null>(null);
  const selectId = useId();

  const mention = (id: string) => {
    const person = people.find((candidate) => candidate.id === id);
    if (!person) return;
    setDraft((text) => `${text}${text && !text.endsWith(" ") && !text.endsWith("\n") ? " " : ""}@${person.name} `);
    setPicked((list) => (list.some((item) => item.id === id) ? list : [...list, person]));
    textRef.current?.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft.trim()) {
      setError("Write a comment.");
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Only the people still named in the text are mentioned.
      const mentions = picked.filter((person) => draft.includes(`@${person.name}`)).map((person) => person.id);
      await http.post(`/api/files/${fileId}/comments`, { body: draft, mentions, threadId }, { handleErrors: false });
      setDraft("");
      setPicked([]);
      showToast(threadId ? "Reply added" : "Comment added", { type: "success" });
      onDone();
    } catch (caught) {
      setError(caught instanceof HttpError ? caught.message : "The comment could not be saved. Please try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-2" noValidate>
      <Textarea
        ref={textRef}
        label={label}
        value={draft}
        rows={threadId ? 2 : 3}
        maxLength={COMMENT_MAX_LENGTH}
        onChange={(event) => {
          setDraft(event.target.value);
          setError(null);
        }}
        error={error}
      />
      <div className="flex flex-wrap items-end gap-2">
        {people.length > 0 ? (
          <div className="w-56">
            <label htmlFor={selectId} className="block text-sm font-medium text-slate-900">
              Mention someone
            </label>
            <select
              id={selectId}
              className={nativeSelectClassName}
              value=""
              onChange={(event) => {
                mention(event.target.value);
              }}
            >
              <option value="">Choose a person…</option>
              {people.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <Button type="submit" size="sm" isLoading={isBusy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

function CommentItem({ comment, onDelete, isBusy }: { comment: CommentView; onDelete: (id: string) => void; isBusy: boolean }) {
  return (
    <div id={`comment-${comment.id}`} className="scroll-mt-24 space-y-1 rounded target:bg-amber-50 target:ring-2 target:ring-amber-300" data-testid="comment">
      <p className="text-sm">
        <span className="font-medium text-slate-900">{comment.author?.name ?? "Former member"}</span>{" "}
        <span className="text-slate-600">{whenText(comment.createdAt)}</span>
      </p>
      {comment.deleted ? (
        <p className="text-sm italic text-slate-600">This comment was deleted.</p>
      ) : (
        <p className="whitespace-pre-wrap break-words text-sm text-slate-800">
          <CommentBody body={comment.body} mentions={comment.mentions} />
        </p>
      )}
      {comment.canDelete ? (
        <Button variant="ghost" size="sm" onClick={() => onDelete(comment.id)} disabled={isBusy} aria-label={`Delete comment by ${comment.author?.name ?? "a former member"}`}>
          Delete
        </Button>
      ) : null}
    </div>
  );
}

function Thread({ thread, data, onChanged }: { thread: ThreadView; data: FileComments; onChanged: () => void }) {
  const [isReplying, setReplying] = useState(false);
  const [isBusy, setBusy] = useState(false);
  const act = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      showToast(done, { type: "success" });
      onChanged();
    } catch {
      // The HTTP client has said what went wrong.
    } finally {
      setBusy(false);
    }
  };
  const remove = (id: string) => {
    if (!window.confirm("Delete this comment? Its text is removed for everyone.")) return;
    void act(() => http.delete(`/api/comments/${id}`), "Comment deleted");
  };
  return (
    <li className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="comment-thread">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <CommentItem comment={thread} onDelete={remove} isBusy={isBusy} />
        {thread.resolved ? <Badge variant="success">Resolved{thread.resolved.byName ? ` by ${thread.resolved.byName}` : ""}</Badge> : null}
      </div>
      {thread.replies.length > 0 ? (
        <ol className="space-y-3 border-l-2 border-slate-200 pl-4" aria-label={`Replies to ${thread.author?.name ?? "a former member"}`}>
          {thread.replies.map((reply) => (
            <li key={reply.id}>
              <CommentItem comment={reply} onDelete={remove} isBusy={isBusy} />
            </li>
          ))}
        </ol>
      ) : null}
      {data.canComment ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" onClick={() => setReplying((open) => !open)} aria-expanded={isReplying}>
            Reply
          </Button>
          <Button
            variant="secondary"
            size="sm"
            disabled={isBusy}
            onClick={() => void act(() => http.post(`/api/comments/${thread.id}/${thread.resolved ? "reopen" : "resolve"}`), thread.resolved ? "Thread reopened" : "Thread resolved")}
          >
            {thread.resolved ? "Reopen" : "Resolve"}
          </Button>
        </div>
      ) : null}
      {isReplying && data.canComment ? (
        <CommentForm
          fileId={data.fileId}
          people={data.people}
          threadId={thread.id}
          label={`Reply to ${thread.author?.name ?? "this thread"}`}
          submitLabel="Reply"
          onDone={() => {
            setReplying(false);
            onChanged();
          }}
        />
      ) : null}
    </li>
  );
}

/**
 * A room file's comments (issue 20): its threads with replies, resolve and reopen, delete, and a
 * form to start a thread that can mention the room's people (they are notified as they chose).
 * `onChanged` reloads the page's data; other people's changes arrive through the room's channel.
 */
export function FileCommentsPanel({ data, onChanged }: { data: FileComments; onChanged: () => void }) {
  const open = data.threads.filter((thread) => !thread.resolved).length;
  return (
    <section aria-labelledby="comments-heading" className="space-y-4" data-testid="file-comments">
      <div className="space-y-1">
        <h2 id="comments-heading" className="text-lg font-semibold text-slate-900">
          Comments
        </h2>
        <p className="text-sm text-slate-700">
          {data.threads.length === 0 ? "No comments yet." : `${data.threads.length} ${data.threads.length === 1 ? "thread" : "threads"}, ${open} open.`}
        </p>
      </div>
      {data.canComment ? (
        <CommentForm fileId={data.fileId} people={data.people} label="Add a comment" submitLabel="Comment" onDone={onChanged} />
      ) : data.reason ? (
        <p className="text-sm text-slate-700">{data.reason}</p>
      ) : null}
      {data.threads.length > 0 ? (
        <ol className="space-y-3" aria-label="Comment threads">
          {data.threads.map((thread) => (
            <Thread key={thread.id} thread={thread} data={data} onChanged={onChanged} />
          ))}
        </ol>
      ) : null}
    </section>
  );
}
