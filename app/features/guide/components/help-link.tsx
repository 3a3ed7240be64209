import { Link } from "react-router";

/** "How … works": the help article that explains the page it sits on (issue 36 "Help"). */
export function HelpLink({ article, children }: { article: string; children: string }) {
  return (
    <Link to={`/help/${article}`} className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline" data-testid="help-link">
      {children}
    </Link>
  );
}
