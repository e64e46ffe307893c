"""The quiz pages (`/<lang>/quiz/…`): views, the words of questions and reasons, and the
progress kept in a signed cookie. The questions themselves come from `tutor.quiz`."""
