import { Hono } from "hono";
import { AppError } from "~/lib/errors";
import type { AppEnv } from "../types";
import { batchApi } from "../batch";
import { clientErrorsApi } from "./client-errors";
import { commentsApi } from "./comments";
import { shareLinksApi } from "./share-links";
import { receivePagesApi } from "./receive-pages";
import { receiveSubmissionsApi } from "./receive-submissions";
import { secretRequestAnswersApi, secretRequestsApi, secretRevealsApi, secretsApi } from "./secrets";
import { dataroomsApi } from "./datarooms";
import { devBenchApi } from "./dev-bench";
import { featuresApi } from "./features";
import { filesApi } from "./files";
import { foldersApi } from "./folders";
import { formsApi } from "./forms";
import { signApi, signaturesApi } from "./signatures";
import { healthApi } from "./health";
import { invitationsApi } from "./invitations";
import { itemsApi } from "./items";
import { organizeApi } from "./organize";
import { permissionsApi } from "./permissions";
import { uploadsApi } from "./uploads";
import { userApi } from "./user";
import { workspaceApi } from "./workspace";
import { searchApi } from "./search";
import { zipApi } from "./zip";
import { workflowRunsApi, workflowsApi, workflowTasksApi } from "./workflows";
import { casesApi, caseTypesApi } from "./cases";
import { teamsApi } from "./teams";
import { billingApi } from "./billing";
import { printOrdersApi } from "./print-orders";

/** The /api sub-app: one Hono app per resource, mounted here. Unknown paths are JSON 404s. */
export const api = new Hono<AppEnv>()
  .route("/health", healthApi)
  .route("/client-errors", clientErrorsApi)
  .route("/user", userApi)
  .route("/workspace", workspaceApi)
  .route("/search", searchApi)
  .route("/permissions", permissionsApi)
  .route("/features", featuresApi)
  .route("/datarooms", dataroomsApi)
  .route("/invitations", invitationsApi)
  .route("/teams", teamsApi)
  .route("/billing", billingApi)
  .route("/print-orders", printOrdersApi)
  .route("/folders", foldersApi)
  .route("/uploads", uploadsApi)
  .route("/items", itemsApi)
  .route("/organize", organizeApi)
  .route("/files", filesApi)
  .route("/comments", commentsApi)
  .route("/share-links", shareLinksApi)
  .route("/secrets", secretsApi)
  .route("/forms", formsApi)
  .route("/signatures", signaturesApi)
  .route("/sign", signApi)
  .route("/receive-pages", receivePagesApi)
  .route("/receive-submissions", receiveSubmissionsApi)
  .route("/secret-reveals", secretRevealsApi)
  .route("/secret-requests", secretRequestsApi)
  .route("/secret-request-answers", secretRequestAnswersApi)
  .route("/zip", zipApi)
  .route("/workflows", workflowsApi)
  .route("/workflow-runs", workflowRunsApi)
  .route("/workflow-tasks", workflowTasksApi)
  .route("/case-types", caseTypesApi)
  .route("/cases", casesApi)
  .route("/", batchApi)
  .route("/dev/bench", devBenchApi)
  .all("*", () => {
    throw new AppError("NOT_FOUND", "There is no such API endpoint.");
  });

export type Api = typeof api;
