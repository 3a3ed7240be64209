import { isRouteErrorResponse, Link } from "react-router";

type ErrorCopy = { status: number; pageName: string; heading: string; body: string };

function serverMessage(error: unknown): string | null {
  if (!isRouteErrorResponse(error) || !error.data || typeof error.data !== "object") return null;
  const message = (error.data as { message?: unknown }).message;
  return typeof message === "string" ? message : null;
}

/** What each kind of error says: helpful for 403/404, calm for everything else. */
export function describeRouteError(error: unknown): ErrorCopy {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = serverMessage(error);
  if (status === 404)
    return {
      status,
      pageName: "Page not found",
      heading: "We couldn't find that page",
      body:
        message ??
        "The link may be old, or the item may have been moved or deleted. Check the address, or start again from the home page.",
    };
  if (status === 403)
    return {
      status,
      pageName: "Access denied",
      heading: "You don't have access to this",
      body:
        message ?? "Your account doesn't have the permission this page needs. Ask the owner to give you access, or go back.",
    };
  if (status === 401)
    return { status, pageName: "Sign in required", heading: "Please sign in", body: "You need to sign in to see this page." };
  if (status >= 400 && status < 500)
    return { status, pageName: "Request not accepted", heading: "We couldn't do that", body: message ?? "The request was not accepted." };
  return {
    status,
    pageName: "Something went wrong",
    heading: "Something went wrong",
    body: "It's not you, it's us. Your data is safe. Please try again in a moment.",
  };
}

export function ErrorPage({ error }: { error: unknown }) {
  const copy = describeRouteError(error);
  return (
    <section aria-labelledby="error-heading" className="mx-auto max-w-xl py-16 text-center">
      <p className="text-sm font-semibold text-brand-700">Error {copy.status}</p>
      <h1 id="error-heading" className="mt-2 text-2xl font-semibold text-slate-900">
        {copy.heading}
      </h1>
      <p className="mt-4 text-slate-700">{copy.body}</p>
      <div className="mt-8 flex justify-center gap-3">
        <Link to="/" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
          Go to the home page
        </Link>
        {copy.status >= 500 ? (
          <button
            type="button"
            onClick={() => window.location.reload()}
            className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium"
          >
            Try again
          </button>
        ) : null}
      </div>
    </section>
  );
}
