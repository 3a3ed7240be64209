import type { FormDefinition, FormField, LogicRule } from "./form-fields";

/**
 * The built-in template library (issue 37): forms a member starts from with "Use template". Their
 * ids start with "template-" so /forms/{id}/edit can tell them from forms (it opens a copy).
 * Browser-safe: the create page lists them, the offline generator matches words against them.
 */

export type BuiltInTemplate = {
  id: `template-${string}`;
  title: string;
  description: string;
  /** Words a sentence may use for this kind of form (the offline "Generate a form"). */
  keywords: readonly string[];
  definition: FormDefinition;
};

const f = (id: string, type: FormField["type"], label: string, extra: Partial<FormField> = {}): FormField => ({ id, type, label, required: false, ...extra });
const rule = (id: string, field: string, value: string, action: LogicRule["action"], target: string): LogicRule => ({ id, match: "all", conditions: [{ field, operator: "equals", value }], action, target });

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = [
  {
    id: "template-client-intake",
    title: "Client intake",
    description: "Who a new client is, what they need and how to reach them.",
    keywords: ["client", "intake", "onboarding", "customer", "new client", "engagement", "matter"],
    definition: {
      fields: [
        f("name", "short_text", "Full name", { required: true }),
        f("email", "email", "E-mail", { required: true }),
        f("phone", "phone", "Phone"),
        f("kind", "radio", "You are", { required: true, options: ["A person", "A company"] }),
        f("company", "short_text", "Company name"),
        f("page2", "page_break", ""),
        f("matter", "long_text", "What can we help you with?", { required: true, max: 2000 }),
        f("deadline", "date", "Is there a deadline?"),
        f("referral", "select", "How did you hear about us?", { options: ["A friend or colleague", "A search engine", "An event", "Other"] }),
        f("consent", "consent", "I agree that my details are kept to handle my request.", { required: true }),
      ],
      rules: [rule("show-company", "kind", "A company", "show", "company"), rule("require-company", "kind", "A company", "require", "company")],
    },
  },
  {
    id: "template-nda-request",
    title: "NDA request",
    description: "The details needed to prepare a non-disclosure agreement before a data room opens.",
    keywords: ["nda", "non-disclosure", "confidentiality", "agreement", "data room", "due diligence"],
    definition: {
      fields: [
        f("company", "short_text", "Your company", { required: true }),
        f("signatory", "short_text", "Who signs for it", { required: true }),
        f("email", "email", "Signatory's e-mail", { required: true }),
        f("mutual", "radio", "Kind of NDA", { required: true, options: ["One-way", "Mutual"] }),
        f("purpose", "long_text", "Purpose of the disclosure", { required: true }),
        f("term", "select", "Term", { options: ["1 year", "2 years", "3 years", "5 years"] }),
        f("signature", "signature", "Signature of the person who signs for the company"),
      ],
      rules: [],
    },
  },
  {
    id: "template-kyc-request",
    title: "KYC document request",
    description: "Identity and address details to know your customer.",
    keywords: ["kyc", "know your customer", "identity", "id", "passport", "compliance", "aml", "verification"],
    definition: {
      fields: [
        f("name", "short_text", "Full legal name", { required: true }),
        f("birth", "date", "Date of birth", { required: true }),
        f("nationality", "short_text", "Nationality", { required: true }),
        f("address", "long_text", "Home address", { required: true }),
        f("id-kind", "radio", "Identity document", { required: true, options: ["Passport", "National identity card", "Driving licence"] }),
        f("id-number", "short_text", "Document number", { required: true }),
        f("id-scan", "file", "A scan or photo of the document", { required: true, max: 2, accept: ["pdf", "jpg", "jpeg", "png", "heic"], maxFileMb: 20 }),
        f("pep", "checkbox", "I hold, or have held, a prominent public function"),
        f("pep-details", "long_text", "Which function, and when?"),
        f("consent", "consent", "I confirm these details are true and complete.", { required: true }),
      ],
      rules: [rule("show-pep", "pep", "true", "show", "pep-details"), rule("require-pep", "pep", "true", "require", "pep-details")],
    },
  },
  {
    id: "template-job-application",
    title: "Job application",
    description: "Candidates tell you about themselves and the role they want.",
    keywords: ["job", "application", "apply", "candidate", "hiring", "recruitment", "career", "cv", "resume"],
    definition: {
      fields: [
        f("name", "short_text", "Full name", { required: true }),
        f("email", "email", "E-mail", { required: true }),
        f("phone", "phone", "Phone"),
        f("role", "select", "Role", { required: true, options: ["Engineering", "Design", "Sales", "Operations"] }),
        f("page2", "page_break", ""),
        f("linkedin", "url", "LinkedIn or portfolio"),
        f("start", "date", "Earliest start date"),
        f("why", "long_text", "Why do you want to join us?", { required: true, max: 3000 }),
        f("cv", "file", "Your CV", { accept: ["pdf", "docx", "doc", "odt"], maxFileMb: 10 }),
      ],
      rules: [],
    },
  },
  {
    id: "template-event-registration",
    title: "Event registration",
    description: "Sign-ups for an event, with sessions and dietary needs.",
    keywords: ["event", "registration", "register", "rsvp", "conference", "webinar", "workshop", "attend", "sign up"],
    definition: {
      fields: [
        f("name", "short_text", "Name", { required: true }),
        f("email", "email", "E-mail", { required: true }),
        f("sessions", "multi_select", "Sessions you will attend", { required: true, options: ["Morning keynote", "Workshop", "Afternoon panel", "Evening reception"] }),
        f("guests", "number", "Guests you bring", { min: 0, max: 5, defaultValue: "0" }),
        f("diet", "select", "Dietary needs", { options: ["None", "Vegetarian", "Vegan", "Gluten-free", "Other"] }),
        f("diet-other", "short_text", "Tell us more"),
      ],
      rules: [rule("show-diet", "diet", "Other", "show", "diet-other")],
    },
  },
  {
    id: "template-feedback",
    title: "Feedback",
    description: "How satisfied people are and what to improve.",
    keywords: ["feedback", "survey", "satisfaction", "review", "nps", "opinion", "rate", "experience"],
    definition: {
      fields: [
        f("rating", "rating", "How would you rate us?", { required: true, max: 5 }),
        f("recommend", "scale", "How likely are you to recommend us?", { min: 0, max: 10 }),
        f("better", "long_text", "What could we do better?"),
        f("contact", "checkbox", "You may contact me about my answers"),
        f("email", "email", "E-mail"),
      ],
      rules: [rule("show-email", "contact", "true", "show", "email"), rule("require-email", "contact", "true", "require", "email")],
    },
  },
  {
    id: "template-contact",
    title: "Contact",
    description: "A simple contact form.",
    keywords: ["contact", "message", "enquiry", "inquiry", "question", "get in touch", "support"],
    definition: {
      fields: [f("name", "short_text", "Name", { required: true }), f("email", "email", "E-mail", { required: true }), f("subject", "short_text", "Subject"), f("message", "long_text", "Message", { required: true })],
      rules: [],
    },
  },
];

export function builtInTemplate(id: string): BuiltInTemplate | undefined {
  return BUILT_IN_TEMPLATES.find((template) => template.id === id);
}
