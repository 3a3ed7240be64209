import { Link } from "react-router";

/** Development only: the interface kit and the dev mailbox, from the page footer (never in a member's navigation). */
export function DevToolsLinks() {
  return (
    <span data-testid="dev-tools">
      {" · Development: "}
      <Link to="/ui" className="underline">
        Interface kit
      </Link>
      {" · "}
      <Link to="/dev/mail" className="underline">
        Mailbox
      </Link>
    </span>
  );
}
