import { Link } from "react-router";
import { Alert } from "~/components/ui/alert";
import { buttonClassName } from "~/components/ui/button";
import { authErrorMessages, pickOutcome } from "~/features/auth/auth-outcomes";
import { AuthLayout } from "~/features/auth/components/auth-layout";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/error";

export const meta: Route.MetaFunction = () => titleMeta("Error");

export function loader({ request }: Route.LoaderArgs) {
  return pickOutcome(authErrorMessages, new URL(request.url).searchParams.get("reason"), "unknown");
}

export default function AuthErrorPage({ loaderData }: Route.ComponentProps) {
  return (
    <AuthLayout title={loaderData.title}>
      <Alert variant="error">{loaderData.body}</Alert>
      <Link to={loaderData.action.to} className={buttonClassName({ className: "mt-6 w-full" })}>
        {loaderData.action.label}
      </Link>
    </AuthLayout>
  );
}
