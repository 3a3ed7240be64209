import { Link } from "react-router";
import { Alert } from "~/components/ui/alert";
import { buttonClassName } from "~/components/ui/button";
import { authSuccessMessages, pickOutcome } from "~/features/auth/auth-outcomes";
import { AuthLayout } from "~/features/auth/components/auth-layout";
import { titleMeta } from "~/lib/title";
import type { Route } from "./+types/success";

export const meta: Route.MetaFunction = () => titleMeta("Success");

export function loader({ request }: Route.LoaderArgs) {
  return pickOutcome(authSuccessMessages, new URL(request.url).searchParams.get("reason"), "signed-out");
}

export default function AuthSuccessPage({ loaderData }: Route.ComponentProps) {
  return (
    <AuthLayout title={loaderData.title}>
      <Alert variant="success">{loaderData.body}</Alert>
      <Link to={loaderData.action.to} className={buttonClassName({ className: "mt-6 w-full" })}>
        {loaderData.action.label}
      </Link>
    </AuthLayout>
  );
}
