// The meter's judgement lives with the exported components (SignUp shows it); the app's forms use the same.
export {
  judgePassword,
  loadCommonPasswords,
  type Strength,
  type StrengthScore,
} from "../../react/password-strength.js";
